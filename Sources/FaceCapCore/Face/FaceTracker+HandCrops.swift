/// When the hand model runs on a tracked face and which of its crops a live run reads (issue 18's CPU, issue 32's
/// hands): `FaceTracker.handIfDue` reads every crop where a single frame decides, else the crops this chooses.
extension FaceTracker {
    /// The hand flag on the mouth of the face with `points`, when the hand model is there and it is time, or
    /// `now` (call after `eyesIfDue`: a frame the eyes ran on waits, unless every frame is read or `now`); at the
    /// interval of `handCadence` (`.unlit` as `.fixing`).
    func handIfDue(_ frame: Frame, _ points: [SIMD3<Float>], now: Bool) -> HandReading? {
        guard let hand else { return nil }
        // Counted while skipped too: the first frame the cadence allows a run reads the hand at once.
        framesSinceHand += 1
        let everyFrame = handInterval <= 1
        // Too dark or too bright: read as while fixing, for a hand whose skin is what reads as light (`GuidanceRules`).
        let slower = handCadence == .fixing || handCadence == .unlit
        let interval = everyFrame ? 1 : slower ? max(handInterval, handFixingInterval) : handInterval
        // A photo waiting for its hand reading (`.capture`) gets every crop on this very frame, eye frame or not.
        let all = now || everyFrame || handCadence == .capture
        // A hand coming over the mouth is read at the ready interval even where the turn would wait (issue 32 item 5).
        let turn = framesSinceHand >= interval && (handOnEyeFrames || !eyesRan)
        // The seven looks on every frame of a face the hand model does not read on every frame, whatever the cadence,
        // so that "the frame before" of `cropsChangedNow` is the frame before (looks only: no model run).
        if !everyFrame { takeFrameLooks(frame, points) }
        let due = all || turn || mouthLookChanged
        // Between the turns of a ready face: the crops whose look changed on this very frame (`cropsChangedNow`).
        let changed = due ? [] : cropsChangedNow()
        guard due || !changed.isEmpty else { return nil }
        handRan = true
        guard due else { return readCrops(changed.map(\.crop), frame, points, looks: changed.map(\.look)) }
        framesSinceHand = 0
        lookRuns = 0
        if all {
            let reading = hand.reading(in: frame, landmarks: points).map { palmReading(frame, points, adding: $0) }
            // Held as each crop's reading, not `complete`: a later frame's merge of them is no reading of every crop.
            let held = reading.map { HandReading(mouth: $0.mouth, face: $0.face, parts: $0.parts) }
            for crop in lastHand.indices { lastHand[crop] = held }
            handCropsRead = HandLandmarker.crops.count
            // The palms were read with every crop: their reading is held in each crop's now.
            forgetPalms()
            for crop in lastLook.indices { lastLook[crop] = everyFrame ? look(frame, points, crop) : frameLook[crop] }
            staggerRunsUnread()
            return reading
        }
        return readCrops(handCropsForRun(), frame, points, looks: nil)
    }

    /// The crops a single run reads (not every crop), from this frame's looks (`frameLook`). While a hand was about on
    /// this face (`handAbout`): the upright mouth crop on every run, so a hand over the mouth is read at the next run
    /// (issue 32: named within `handInterval`), and one of the others in turn (`otherCrops`). While none was
    /// (`quietHands`): the crops whose look changed since their last reading (`CropLook`, at least `lookChange`), the
    /// most changed first, at most two; when none changed, one crop in turn (`quietCrops`). A crop's look is kept only
    /// when it is read, so a hand that creeps in over several runs adds up to a change.
    func handCropsForRun() -> [Int] {
        guard quietHands, !handAbout else {
            let other = Self.otherCrops[handCrop]
            handCrop = (handCrop + 1) % Self.otherCrops.count
            for crop in [0, other] { lastLook[crop] = frameLook[crop] }
            noteRead([0, other])
            return [0, other]
        }
        var changed: [(crop: Int, change: Float)] = []
        let looks = frameLook
        for crop in lastLook.indices {
            guard let now = looks[crop], let then = lastLook[crop] else {
                changed.append((crop, .infinity))
                continue
            }
            let change = now.change(from: then)
            if change >= lookChange { changed.append((crop, change)) }
        }
        // The upright mouth crop first when it changed (issue 32: a hand over the mouth named within the interval).
        var crops = changed.sorted { ($0.crop == 0 ? .infinity : $0.change) > ($1.crop == 0 ? .infinity : $1.change) }
            .prefix(2).map(\.crop)
        if crops.isEmpty {
            let turn = Self.quietCrops[quietCrop]
            quietCrop = (quietCrop + 1) % Self.quietCrops.count
            crops = [overdueCrop(besides: []) ?? turn]
        } else if let overdue = overdueCrop(besides: crops) {
            // Changed crops outrank the turn, but not for longer than the turn would leave a crop unread: the overdue
            // crop takes the second slot from a crop that was read last run too (it keeps changing), never from one
            // that has just changed (a hand arriving there is read at once).
            if crops.count == 1 { crops.append(overdue) } else if runsUnread[crops[1]] == 0 { crops[1] = overdue }
        }
        noteRead(crops)
        for crop in crops { lastLook[crop] = looks[crop] }
        return crops
    }

    /// Takes the seven looks of this frame into `frameLook`, and how far each moved since the frame before into
    /// `frameJump` (nil where either look is missing: a face's first frame). On every frame of a tracked face whose
    /// hand model does not read every frame, whatever the cadence, so "the frame before" is the frame before, not the
    /// last frame a run between turns was allowed on (24 × 24 samples a crop, no model run: about 0.02 ms in all,
    /// docs/performance.md).
    func takeFrameLooks(_ frame: Frame, _ points: [SIMD3<Float>]) {
        for crop in frameLook.indices {
            let now = look(frame, points, crop)
            frameJump[crop] = now.flatMap { now in frameLook[crop].map { now.change(from: $0) } }
            frameLook[crop] = now
        }
    }

    /// Between two turns of a ready face (`HandCadence.ready`, neither every frame nor a photo's), the crops whose look
    /// changed on this frame (`takeFrameLooks`), the most changed first, at most `maxLookCrops`, with their looks (issue
    /// 32 item 5: a hand that comes between two turns is read on the frame it came, not at the next turn, so that frame
    /// does not read `ready`). A crop's look counts as changed when it moved by `lookChange` since the crop's last
    /// reading and by `lookJump` since the frame before; at most `lookRunsPerTurn` such runs between two turns bounds
    /// the cost where looks keep changing (a person talking).
    func cropsChangedNow() -> [(crop: Int, look: CropLook)] {
        guard handCadence == .ready, handInterval > 1, lookRuns < lookRunsPerTurn, maxLookCrops > 0 else { return [] }
        var changed: [(crop: Int, look: CropLook, change: Float)] = []
        for crop in lastLook.indices {
            guard let now = frameLook[crop], let then = lastLook[crop], let jump = frameJump[crop] else { continue }
            let change = now.change(from: then)
            if change >= lookChange, jump >= lookJump { changed.append((crop, now, change)) }
        }
        guard !changed.isEmpty else { return [] }
        lookRuns += 1
        return changed.sorted { $0.change > $1.change }.prefix(maxLookCrops).map { ($0.crop, $0.look) }
    }

    /// Reads the hand model on `crops` of the face with `points`: on a turn (`looks` nil; the palms too when theirs is
    /// due, `livePalmIfDue`), or on the crops whose look changed (`looks`, theirs, `cropsChangedNow`; the palms too
    /// when those crops name no part, `namesCover`: a hand over one eye is framed by its palm's crop, not by theirs,
    /// which may read it as a weak flag alone); the reading is
    /// these crops' with the other crops' and the palms' last ones on this face (held: not `complete`). Nil when the
    /// frame's data is too short.
    func readCrops(_ crops: [Int], _ frame: Frame, _ points: [SIMD3<Float>], looks: [CropLook]?) -> HandReading? {
        guard let hand else { return nil }
        var fresh = HandReading()
        for crop in crops {
            guard
                let reading = hand.reading(
                    in: frame, roi: HandLandmarker.roi(landmarks: points, crop: crop),
                    face: points, isMouthCrop: HandLandmarker.crops[crop].centre == .mouth)
            else { return nil }
            lastHand[crop] = reading
            fresh = fresh.merged(with: reading)
        }
        handCropsRead = crops.count
        handCropsReadList = crops
        if let looks {
            handRanOnLook = true
            for (crop, look) in zip(crops, looks) {
                lastLook[crop] = look
                runsUnread[crop] = 0
            }
            // The crops name no part (no hand, or a weak flag): a hand they do not frame (over one eye) is the palm's
            // own crop's, read now.
            if !fresh.namesCover, palm != nil, palmEvery > 0 {
                palmsRead += 1
                handRunsSincePalm = 0
                lastPalm = palmReading(frame, points, adding: HandReading())
            }
        } else {
            livePalmIfDue(frame, points)
        }
        let held = lastHand.reduce(fresh) { $1.map($0.merged) ?? $0 }
        return lastPalm.map(held.merged) ?? held
    }

    /// Forgets the looks `takeFrameLooks` keeps from frame to frame (a new face).
    func forgetFrameLooks() {
        for crop in frameLook.indices {
            frameLook[crop] = nil
            frameJump[crop] = nil
        }
        lookRuns = 0
    }

    /// Whether the hand's turn, due at the ready interval (`handInterval` frames since the last run), should not wait
    /// for a frame without eyes nor for the slower `.fixing` interval: the upright mouth crop's look changed since its
    /// last reading (`CropLook`, at least `lookChange`). A hand coming over the mouth changes that look and may also
    /// move the face's landmarks enough for a frame or two to ask `holdStill` (the `.fixing` cadence): without this the
    /// run was put off past the turn, 7–8 frames (0.23–0.27 s at 30 fps) after the last (issue 32 item 5: a hand
    /// over the mouth named within 0.2 s), unlit too (a pale hand reads as light).
    var mouthLookChanged: Bool {
        guard framesSinceHand >= handInterval, let then = lastLook[0], let now = frameLook[0] else { return false }
        return now.change(from: then) >= lookChange
    }

    /// The crop, not among `crops`, unread for as long as the turn allows the others (`quietCrops.count - 1` runs;
    /// the upright mouth crop, read every other run in turn, is read at once when its look changes — a hand coming
    /// over the mouth — so it needs no shorter bound), the mouth crop first, then the longest unread.
    func overdueCrop(besides crops: [Int]) -> Int? {
        runsUnread.indices
            .filter { !crops.contains($0) && runsUnread[$0] >= Self.quietCrops.count - 1 }
            .max { ($0 == 0 ? Int.max : runsUnread[$0]) < ($1 == 0 ? Int.max : runsUnread[$1]) }
    }

    /// Whether a hand was about on this face: some crop's last reading has a flag of at least `handAboutFlag`, or
    /// some crop has no reading yet.
    var handAbout: Bool {
        lastHand.contains { $0?.saysHandAbout ?? true }
    }

    /// The look of crop `crop` of the face with `points` (`CropLook`).
    func look(_ frame: Frame, _ points: [SIMD3<Float>], _ crop: Int) -> CropLook? {
        CropLook(frame: frame, roi: HandLandmarker.roi(landmarks: points, crop: crop), scratch: &lookScratch)
    }

    /// Counts a run that read `crops`: theirs start again, the others' go up.
    func noteRead(_ crops: [Int]) {
        for crop in runsUnread.indices { runsUnread[crop] = crops.contains(crop) ? 0 : runsUnread[crop] + 1 }
    }

    /// After a reading of every crop: each crop's count set to where its turn in `quietCrops` would fall (crop k read
    /// at the turn's (2k − 1)th run), so the crops do not all fall due at once.
    func staggerRunsUnread() {
        for crop in runsUnread.indices { runsUnread[crop] = crop == 0 ? 0 : max(0, Self.quietCrops.count - 2 * crop) }
    }
}

extension HandReading {
    /// Whether this reading says a hand is about: a flag of at least `FaceTracker.handAboutFlag`, or a part covered.
    /// What keeps a live run at two crops (`FaceTracker.handAbout`) and has a held palm reading read again at the next
    /// hand run (`livePalmIfDue`): a weak flag is a hand coming or going, worth watching.
    public var saysHandAbout: Bool {
        mouth >= FaceTracker.handAboutFlag || face >= FaceTracker.handAboutFlag || !parts.isEmpty
    }

    /// Whether this reading names a cover: a part under the hand (only from a flag of at least
    /// `HandLandmarker.partFlag`). What spares a run on a look's change the palms (`readCrops`): a weak flag with no
    /// part is under what the analyzer names anew (`minHandOverMouth`, `minHandOverFace`), so the palms are read on
    /// that frame as when the crops found no hand (issue 32 item 5: on the live set, the run on most of the hand's first
    /// frames left `ready` read a flag of 0.25–0.39 and no part; docs/calibration.md).
    public var namesCover: Bool { !parts.isEmpty }
}
