/// The measures of the face the guidance is about (the largest confident face).
public struct FaceMetrics: Sendable, Equatable {
    /// Index of this face in the `[Face]` the measures were computed from.
    public var index: Int
    public var score: Double
    /// The face box in frame pixels: the bounds of the 468 landmarks when the landmark model ran, else
    /// the detector's box. One definition for every frame, whether the face was detected or tracked
    /// (the detector's box is ~7 % wider and sits lower), so sizes and motion do not jump between them.
    public var box: Rect
    /// Box width over frame width.
    public var widthRatio: Double
    /// Box centre minus the oval centre, in frame widths (x) and heights (y); negative = image-left/up.
    public var offsetX: Double
    public var offsetY: Double
    /// Smallest distance from the box or a key landmark to the frame edge, as a fraction of the frame
    /// width (left, right) or height (top, bottom); negative when part of the face is outside the frame.
    public var edgeMargin: Double
    /// Nil when the landmark model did not run or found no face.
    public var pose: HeadPose?
    public var features: FacialFeatures?
    /// The iris model's eye measures; nil when it has not run on this face recently.
    public var eyes: EyeMetrics?
    /// Whether something covers the face; nil without landmarks.
    public var cover: CoverMetrics?
    /// Nil only for a frame whose data is shorter than its format says.
    public var light: LightMetrics?
    /// Variance of the Laplacian of the face crop resampled to 64×64, exposure-normalised (higher = sharper).
    public var sharpness: Double?
    /// Distance between the eye centres (the midpoints of each eye's corners, landmarks 33/133 and 362/263)
    /// in frame pixels; nil without landmarks.
    public var interEyeDistance: Double? = nil
}

/// How the face moved over the last `motionLookBack` seconds.
public struct MotionMetrics: Sendable, Equatable {
    /// Face centre movement in frame widths per 100 ms.
    public var centreSpeed: Double
    /// Relative change of the face width per 100 ms.
    public var sizeChange: Double
}

/// Everything measured on one frame; the guidance is decided from this alone (plus its own memory).
public struct FrameMetrics: Sendable, Equatable {
    public var timestamp: Double
    public var frameWidth: Int
    public var frameHeight: Int
    /// Mean luma of the whole frame (nil for a truncated frame).
    public var frameLuma: Double?
    /// Faces with a score of at least `minFaceScore`, and their widths over the frame width, largest first.
    public var faceCount: Int
    public var faceWidths: [Double]
    /// The largest confident face, nil when there is none.
    public var face: FaceMetrics?
    /// The second largest confident face's score and width relative to the largest, when there is one.
    public var secondFaceScore: Double?
    public var secondFaceRelativeWidth: Double?
    /// Nil until the face has been seen for long enough to tell (and always for a single photo).
    public var motion: MotionMetrics?
    /// No face, but the hand model read over a detection the landmark model rejected (or where the face was lost a
    /// moment ago): its flag there (`Face.hiddenByHand`, the highest), or between runs the last within
    /// `handMemory`; nil when a face is measured or nothing was read. At `minHandOverFace` a hand hides the face.
    public var hiddenByHand: Double? = nil
}

/// Computes the per-frame measures from a frame and the faces the models found in it.
public enum FaceMeasures {
    /// Landmarks whose presence in the frame means the face is in view: forehead, chin, both cheeks,
    /// outer eye corners, nose tip and mouth corners.
    static let keyLandmarks = [10, 152, 234, 454, 33, 263, 1, 61, 291]

    /// Measures `faces` (in `frame`'s pixels) on `frame`. Pure: the same inputs give the same numbers.
    /// Faces count from `minScore` (default `thresholds.minFaceScore`; lower while a face is tracked).
    public static func measure(
        frame: Frame, faces: [Face], thresholds: AnalyzerThresholds,
        minScore: Double? = nil
    ) -> FrameMetrics {
        let width = Double(max(frame.width, 1)), height = Double(max(frame.height, 1))
        let scoreCut = minScore ?? thresholds.minFaceScore
        // Widest first by the detector's box (for a tracked face, its landmarks' bounds): the measure
        // `FaceTracker` picks the face it runs landmarks on by, so the measured face is that face.
        // A detection the landmark model did not confirm is not a face (a chandelier, a pattern): not counted,
        // never measured.
        let confident = faces.indices
            .filter { Double(faces[$0].detection.score) >= scoreCut && !faces[$0].isRejected }
            .sorted { faces[$0].detection.box.width > faces[$1].detection.box.width }
        var metrics = FrameMetrics(
            timestamp: frame.timestamp, frameWidth: frame.width, frameHeight: frame.height,
            frameLuma: nil, faceCount: confident.count,
            faceWidths: confident.map { Double(faceBox(faces[$0]).width) / width },
            face: nil, secondFaceScore: nil, secondFaceRelativeWidth: nil, motion: nil)
        if confident.count > 1 {
            // The strongest competitor: the widest other face that is confident enough to count.
            let largest = Double(faceBox(faces[confident[0]]).width)
            let second = confident.dropFirst().max {
                secondFaceRank(faces[$0], thresholds) < secondFaceRank(faces[$1], thresholds)
            }!
            metrics.secondFaceScore = Double(faces[second].detection.score)
            metrics.secondFaceRelativeWidth = largest > 0 ? Double(faceBox(faces[second]).width) / largest : 0
        }
        let primary = confident.first.map { faces[$0] }
        let measured = frame.withLuma { reader -> (Double, FaceMetrics?) in
            let frameLuma = LumaStatistics.frameMean(reader)
            guard let index = confident.first, let face = primary else { return (frameLuma, nil) }
            return (
                frameLuma,
                faceMetrics(
                    face, index: index, reader: reader, width: width, height: height,
                    thresholds: thresholds)
            )
        }
        if let measured {
            metrics.frameLuma = measured.0
            metrics.face = measured.1
            if let index = confident.first, let landmarks = faces[index].landmarks {
                metrics.face?.cover = CoverMeasures.measure(
                    frame: frame, points: landmarks.points,
                    presence: landmarks.presence)
                metrics.face?.cover?.handOverMouth = faces[index].handFlag.map(Double.init)
                metrics.face?.cover?.handOverFace = faces[index].hand.map { Double($0.face) }
                metrics.face?.cover?.handParts = faces[index].hand?.parts ?? []
                metrics.face?.cover?.handComplete = faces[index].hand?.complete ?? (faces[index].handFlag != nil)
            }
        } else if let index = confident.first, let face = primary {
            metrics.face = geometry(face, index: index, width: width, height: height, thresholds: thresholds)
        }
        if metrics.face == nil {
            metrics.hiddenByHand = faces.compactMap(\.hiddenByHand).max().map(Double.init)
        }
        return metrics
    }

    /// Orders competing second faces: ones that would trigger `multipleFaces` first, then by width.
    private static func secondFaceRank(_ face: Face, _ t: AnalyzerThresholds) -> Double {
        let qualifies = Double(face.detection.score) >= t.secondFaceMinScore
        return (qualifies ? 1e6 : 0) + Double(faceBox(face).width)
    }

    /// The face box the analyzer measures: the bounds of the landmarks, or the detector's box without them.
    public static func faceBox(_ face: Face) -> Rect {
        guard let points = face.landmarks?.points, points.count >= FaceLandmarker.count else {
            return face.detection.box
        }
        return FaceTracker.bounds(points)
    }

    private static func faceMetrics(
        _ face: Face, index: Int, reader: LumaReader, width: Double, height: Double,
        thresholds: AnalyzerThresholds
    ) -> FaceMetrics {
        // The eyes measured once, here, with the pixels at hand: their pupils are read too (`EyeMeasures.pupilShade`).
        var metrics = geometry(
            face, index: index, width: width, height: height, thresholds: thresholds,
            measuringEyes: false)
        metrics.eyes = face.eyes.map {
            EyeMeasures.measure(
                $0, pose: metrics.pose, thresholds: thresholds,
                reader: reader)
        }
        let box = metrics.box
        // The nose splits the face into halves (a turned face's halves are then still its own halves).
        let noseX: Float
        if let points = face.landmarks?.points, points.count > 1 {
            noseX = points[1].x
        } else if face.detection.keypoints.count > 2 {
            noseX = face.detection.keypoints[2].x
        } else {
            noseX = box.centre.x
        }
        metrics.light = LumaStatistics.light(
            reader, region: lightRegion(box), midX: noseX,
            darkLevel: Int(thresholds.darkPixelLuma),
            brightLevel: Int(thresholds.brightPixelLuma.rounded(.up)))
        metrics.sharpness = LumaStatistics.sharpness(reader, region: sharpRegion(box))
        return metrics
    }

    /// The inner 80 % × 90 % of the box: skin, eyes and mouth; little hair or background.
    static func lightRegion(_ box: Rect) -> Rect {
        Rect(x: box.x + 0.1 * box.width, y: box.y + 0.05 * box.height, width: 0.8 * box.width, height: 0.9 * box.height)
    }

    /// The central 70 % of the box: eyes, nose and mouth carry the detail blur destroys; the box's edges may hold
    /// background whose own sharpness says nothing about the face.
    static func sharpRegion(_ box: Rect) -> Rect {
        Rect(
            x: box.x + 0.15 * box.width, y: box.y + 0.15 * box.height, width: 0.7 * box.width, height: 0.7 * box.height)
    }

    /// The face's measures that need no pixels; the eyes' too unless `measuringEyes` is false (a caller that
    /// measures them with the pixels, which it would otherwise do a second time on every frame with eyes).
    static func geometry(
        _ face: Face, index: Int, width: Double, height: Double,
        thresholds: AnalyzerThresholds, measuringEyes: Bool = true
    ) -> FaceMetrics {
        let box = faceBox(face)
        let centre = box.centre
        var margin = min(
            Double(box.x) / width, Double(box.y) / height,
            1 - Double(box.x + box.width) / width, 1 - Double(box.y + box.height) / height)
        let points = face.landmarks?.points ?? []
        if points.count >= FaceLandmarker.count {
            for i in keyLandmarks {
                let x = Double(points[i].x) / width, y = Double(points[i].y) / height
                margin = min(margin, x, 1 - x, y, 1 - y)
            }
        }
        let pose = LandmarkGeometry.headPose(points, pitchOffset: thresholds.pitchOffset)
        var interEye: Double?
        if points.count >= FaceLandmarker.count {
            let right = (points[33] + points[133]) / 2, left = (points[362] + points[263]) / 2
            let dx = Double(left.x - right.x), dy = Double(left.y - right.y)
            interEye = (dx * dx + dy * dy).squareRoot()
        }
        return FaceMetrics(
            index: index, score: Double(face.detection.score), box: box,
            widthRatio: Double(box.width) / width,
            offsetX: Double(centre.x) / width - thresholds.ovalCentreX,
            offsetY: Double(centre.y) / height - thresholds.ovalCentreY,
            edgeMargin: margin,
            pose: pose,
            features: LandmarkGeometry.features(points),
            eyes: measuringEyes ? face.eyes.map { EyeMeasures.measure($0, pose: pose, thresholds: thresholds) } : nil,
            light: nil, sharpness: nil, interEyeDistance: interEye)
    }
}
