// Palms anywhere around the face (issue 32): where a single frame must decide, MediaPipe's palm detector on a square
// around the face finds the hands the FaceMesh-placed crops frame badly (pushed off an eye, below the mouth, off a
// cheek), and the hand model reads each palm's own crop (`PalmDetection.handROI`, as MediaPipe's hand graph): its
// landmarks' hull against the face's parts (`HandLandmarker.reading(in:roi:face:isMouthCrop:)`) says what it covers.
// docs/calibration.md, "The palm detector".

extension FaceTracker {
    /// The side of the square around the face the palm detector reads, in face widths (234 → 454).
    public static let palmRegionSide: Float = 2
    /// At most this many palms (best first) get a hand-model run.
    public static let maxPalms = 2
    /// A palm is read only from this score (the detector keeps 0.5) and with a box whose longer side is at least
    /// `minPalmSide` face widths: the one bare real face whose palm read as a hand over it (tom_hanks, a tight
    /// grey crop: 5 of 12 frames `faceCovered` at 0.7 and 0.33) holds a palm of 0.36–0.41 face widths at 0.76–0.88;
    /// of the 480 constructed partial covers, 399 hold a palm of at least 0.45 at 0.7 (435 at 0.42, 454 at 0.33;
    /// docs/calibration.md, "The palm detector").
    public static let minPalmScore: Float = 0.7
    public static let minPalmSide: Float = 0.45
    /// A palm the detector is surer of is read from this score down to `minStrongPalmSide` face widths: of the 15
    /// constructed partial covers `analyze` read `ready`, 8 hold a palm of 0.41–0.44 face widths at 0.90–0.97 (hands
    /// pushed off an eye, a cheek or the mouth); tom_hanks's palms that read as a hand over his face score at most
    /// 0.76 from 0.40 face widths (0.88 at 0.38). Bare real faces do hold sure palms (ft3_13 0.96 at 0.43, ft3_15 0.93
    /// at 0.60), but the hand model reads none of their crops over a part (docs/calibration.md, "Palms pushed off").
    public static let minStrongPalmScore: Float = 0.9
    public static let minStrongPalmSide: Float = 0.40
    /// When the hand model reads no part under a palm's own crop (`handROI`), it reads it again on a crop this many
    /// times wider, on the same centre: a hand pushed off a part lies at the crop's edge there, and the wider crop
    /// holds more of the face around it (3 of those 8 partial covers, 0 bare real faces; docs/calibration.md).
    public static let palmCropWidening: Float = 1.25

    /// Whether the palm `found` on a face `faceWidth` pixels wide gets a hand-model run (`minPalmScore` and
    /// `minPalmSide`, or `minStrongPalmScore` and `minStrongPalmSide`).
    public static func keepsPalm(_ found: PalmDetection, faceWidth: Float) -> Bool {
        let side = max(found.box.width, found.box.height)
        return (found.score >= minPalmScore && side >= minPalmSide * faceWidth)
            || (found.score >= minStrongPalmScore && side >= minStrongPalmSide * faceWidth)
    }

    /// In the live loop (a tracked face's hand runs that read some crops), the palms are read with every
    /// `palmEvery`-th such run: every 0.6 s at the wizard's `handInterval` of 0.2 s while ready, so a hand only the
    /// palm's crop sees is named within about 0.6 s (the frame a ready run keeps reads the palms itself, at once).
    /// Their reading is held until the next (as each crop's is until it is read again) and forgotten with the face.
    /// Cost: one palm run (`palm_cpu_ms` about 4.6 ms) and a hand run on each palm kept, on one hand frame in three
    /// (docs/performance.md, "Palms in the wizard"; the live partial covers in docs/calibration.md).
    public static let defaultPalmEvery = 3

    /// Reads the palms on this live hand run when it is their turn (`palmEvery`), into `lastPalm`; and on every hand
    /// run while their last reading says a hand is about (`saysHandAbout`: a flag of at least `handAboutFlag`, or
    /// parts), so that a cover only the palm sees clears at the next hand run once the hand goes, not up to
    /// `palmEvery` runs later (as each crop's held reading is read again once its look changes). That costs a palm run
    /// a hand run only while a hand is there.
    func livePalmIfDue(_ frame: Frame, _ points: [SIMD3<Float>]) {
        guard palm != nil, palmEvery > 0 else { return }
        handRunsSincePalm += 1
        guard handRunsSincePalm >= palmEvery || lastPalm?.saysHandAbout == true else { return }
        handRunsSincePalm = 0
        palmsRead += 1
        lastPalm = palmReading(frame, points, adding: HandReading())
    }

    /// Forgets the palms' held reading and starts their count again (a new face, or every crop just read with them).
    func forgetPalms() {
        lastPalm = nil
        handRunsSincePalm = 0
    }

    /// `reading` merged with the hand model's reading on each palm kept (`keepsPalm`; its crop widened when the first
    /// run reads no part under it, `palmCropWidening`) the
    /// detector finds on a square of `palmRegionSide` face widths centred on the face with 468 landmarks `points`
    /// (unchanged without a palm detector, or when a palm's crop cannot be read).
    func palmReading(_ frame: Frame, _ points: [SIMD3<Float>], adding reading: HandReading) -> HandReading {
        guard let palm, let hand, points.count >= FaceLandmarker.count else { return reading }
        func p(_ i: Int) -> SIMD2<Float> { SIMD2(points[i].x, points[i].y) }
        let faceWidth = ((p(454) - p(234)) * (p(454) - p(234))).sum().squareRoot()
        let centre = (p(234) + p(454) + p(10) + p(152)) / 4
        let side = Self.palmRegionSide * faceWidth
        guard side >= 1 else { return reading }
        let region = Rect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side)
        var merged = reading
        let palms = palm.detect(frame, in: region).filter { Self.keepsPalm($0, faceWidth: faceWidth) }
        for found in palms.prefix(Self.maxPalms) {
            let roi = found.handROI
            guard var one = hand.reading(in: frame, roi: roi, face: points, isMouthCrop: false) else { continue }
            if one.parts.isEmpty,
                let wide = hand.reading(
                    in: frame,
                    roi: FaceROI(centre: roi.centre, side: roi.side * Self.palmCropWidening, rotation: roi.rotation),
                    face: points, isMouthCrop: false)
            {
                one = one.merged(with: wide)
            }
            merged = merged.merged(with: one)
        }
        return merged
    }

    /// The hand over a face the landmark model did not confirm (`box`, the detection or where the face was lost),
    /// with the palms too: the highest of `HandLandmarker.hidesFace`'s flag on the crops centred on the box and the
    /// hand model's flag on each palm kept (`keepsPalm`, the box's width for the face's) on a square of
    /// `palmRegionSide` box widths, whose hull holds at least `minHiddenFaceOverlap` of the box's middle, or, for a
    /// detection (`detected`), `minRaisedOverlap` of it raised by `palmBoxRaise` (a hand over the eyes: the
    /// detector's box slides down onto the mouth and chin, the hand lies above its middle, and the crops centred
    /// there do not frame it). Not raised on a confirmed face's box nor where a face was lost (its landmarks'
    /// bounds, whose top is the hairline: raised, that middle reaches into the hair, where a hand covers nothing).
    /// Nil when the frame's data is too short. The palms are read on every run, never held: a flag held between runs
    /// would outlive the hand (or be given to another box) while the face stays unconfirmed.
    func hiddenByHandOrPalm(_ frame: Frame, box: Rect, detected: Bool = true) -> Float? {
        guard let hand, let centred = hand.hidesFace(in: frame, box: box) else { return nil }
        guard let palm, box.width >= 1 else { return centred }
        let side = Self.palmRegionSide * box.width
        let region = Rect(x: box.centre.x - side / 2, y: box.centre.y - side / 2, width: side, height: side)
        var best = centred
        let palms = palm.detect(frame, in: region).filter { Self.keepsPalm($0, faceWidth: box.width) }
        for found in palms.prefix(Self.maxPalms) {
            guard let flag = hand.flag(in: frame, roi: found.handROI) else { continue }
            HandLandmarker.convexHull(hand.points, into: &hand.hull, sorted: &hand.sorted)
            let over = HandLandmarker.middleOverlap(hull: hand.hull, box: box) >= HandLandmarker.minHiddenFaceOverlap
            let raised = HandLandmarker.middleOverlap(hull: hand.hull, box: box, raise: HandLandmarker.palmBoxRaise)
            if over || (detected && raised >= HandLandmarker.minRaisedOverlap) { best = max(best, flag) }
        }
        return best
    }
}
