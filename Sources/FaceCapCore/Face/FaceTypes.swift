/// A point in image pixels (x right, y down).
public struct Point2: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public init(x: Float, y: Float) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle in image pixels.
public struct Rect: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var centre: Point2 { Point2(x: x + width / 2, y: y + height / 2) }
}

/// A face found by the detector, in the pixels of the frame it was found in.
public struct FaceDetection: Sendable, Equatable {
    /// Sigmoid score in 0...1.
    public var score: Float
    public var box: Rect
    /// Six keypoints, in MediaPipe's order: right eye, left eye, nose tip, mouth centre, right ear
    /// tragion, left ear tragion (the subject's own sides: in an unmirrored image the right eye is
    /// on the image's left).
    public var keypoints: [Point2]
    public init(score: Float, box: Rect, keypoints: [Point2]) {
        self.score = score; self.box = box; self.keypoints = keypoints
    }
}

/// The 468 FaceMesh landmarks of one face, in frame pixels; z is relative depth in the same pixel
/// scale as x (negative is closer to the camera).
public struct FaceLandmarks: Sendable, Equatable {
    public var points: [SIMD3<Float>]
    /// The model's face-presence logit: ≥ 0 means a face is there.
    public var presence: Float
    public init(points: [SIMD3<Float>], presence: Float) {
        self.points = points; self.presence = presence
    }
}

/// Everything the face models say about one face in one frame.
public struct Face: Sendable, Equatable {
    public var detection: FaceDetection
    /// Nil when the landmark model did not run or reported no face.
    public var landmarks: FaceLandmarks?
    /// True when this face was followed from the previous frame's landmarks instead of detected in this
    /// frame; `detection` is then derived from the landmarks and carries the last detector score.
    public var isTracked: Bool
    /// The iris model's eye and iris points, set only on frames where it ran on this face (every
    /// `FaceTracker.eyeInterval` frames, and whenever the face was detected anew); nil otherwise.
    public var eyes: FaceEyes?
    /// True when the landmark model did not confirm this detection (it found no face there, or the frame's
    /// landmark runs were used up, `FaceTracker.maxConfirmations`): it is not a face (not counted for
    /// `multipleFaces`, never the measured face), only a detection kept for the record.
    public var isRejected: Bool
    /// The hand-landmark model's hand flag (0…1) on the mouth (`HandLandmarker.handFlag`), set only on frames
    /// where it ran on this face (every `FaceTracker.handInterval` frames); nil otherwise.
    public var handFlag: Float?
    /// The whole reading of the hand model when it ran (`handFlag` is its `mouth`): the flag over the other parts
    /// of the face and which parts (`HandLandmarker.reading`).
    public var hand: HandReading?
    /// On a rejected detection (or where a face was lost a moment ago, score 0): the hand model's flag over it
    /// (`FaceTracker.hiddenByHandOrPalm`: the crops centred on it and the palms around it) when it was read there;
    /// nil otherwise. A hand there hides the face.
    public var hiddenByHand: Float?
    public init(
        detection: FaceDetection, landmarks: FaceLandmarks?, isTracked: Bool = false, eyes: FaceEyes? = nil,
        isRejected: Bool = false, handFlag: Float? = nil, hand: HandReading? = nil,
        hiddenByHand: Float? = nil
    ) {
        self.detection = detection; self.landmarks = landmarks; self.isTracked = isTracked; self.eyes = eyes
        self.isRejected = isRejected
        self.hiddenByHand = hiddenByHand
        self.handFlag = handFlag ?? hand?.mouth
        self.hand = hand
    }
}
