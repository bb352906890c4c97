#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Head orientation in degrees, in the unmirrored camera image.
///
/// - `yaw` > 0: the person turns toward their own left (the nose moves to the image's right).
/// - `pitch` > 0: the person looks up (chin up).
/// - `roll` > 0: the head tilts clockwise in the image (the eye on the image's right drops).
public struct HeadPose: Sendable, Equatable {
    public var yaw: Double
    public var pitch: Double
    public var roll: Double
    public init(yaw: Double, pitch: Double, roll: Double) { self.yaw = yaw; self.pitch = pitch; self.roll = roll }
}

/// Eye and mouth openness from the 468 landmarks.
public struct FacialFeatures: Sendable, Equatable {
    /// Eye aspect ratio (Soukupová & Čech) of the eye on the image's left (the person's right eye)…
    public var rightEyeAspectRatio: Double
    /// …and of the person's left eye.
    public var leftEyeAspectRatio: Double
    /// Inner-lip gap over inner mouth width (0 closed; ~0.25 smiling with teeth, ~0.5 wide open).
    public var mouthOpening: Double
}

/// Pose and feature measures from FaceMesh landmarks (indices: reference/mediapipe-models.md §1.12).
public enum LandmarkGeometry {
    /// Vertices of MediaPipe's canonical face model (`canonical_face_model.obj`, cm, y up, z toward the
    /// viewer) for landmarks spread over the rigid part of the face: nose, forehead, eye corners, mouth
    /// corners and chin. Mouth corners move with expression, so they get half weight.
    static let canonical: [(index: Int, point: SIMD3<Double>, weight: Double)] = [
        (1, SIMD3(0, -1.127, 7.476), 1),
        (4, SIMD3(0, -0.463, 7.587), 1),
        (10, SIMD3(0, 8.262, 4.482), 1),
        (33, SIMD3(-4.446, 2.664, 3.173), 1),
        (263, SIMD3(4.446, 2.664, 3.173), 1),
        (133, SIMD3(-1.856, 2.585, 3.758), 1),
        (362, SIMD3(1.856, 2.585, 3.758), 1),
        (61, SIMD3(-2.456, -4.343, 4.284), 0.5),
        (291, SIMD3(2.456, -4.343, 4.284), 0.5),
        (152, SIMD3(0, -9.403, 4.264), 1),
        (199, SIMD3(0, -7.942, 5.181), 1),
    ]

    /// Fits the canonical face to the landmarks (weighted 3-D Procrustes: rotation, scale and
    /// translation, Horn's quaternion method) and reads yaw, pitch and roll off the rotation.
    ///
    /// Landmarks are (x right, y down, z away from the camera) in frame pixels; the canonical model is
    /// mapped into that frame by (X, −Y, −Z), a proper rotation. Returns nil for fewer than 468 points.
    public static func headPose(_ points: [SIMD3<Float>], pitchOffset: Double = 0) -> HeadPose? {
        guard points.count >= FaceLandmarker.count else { return nil }
        var totalWeight = 0.0
        var modelCentre = SIMD3<Double>.zero, dataCentre = SIMD3<Double>.zero
        for (index, point, weight) in canonical {
            let p = points[index]
            modelCentre += weight * SIMD3(point.x, -point.y, -point.z)
            dataCentre += weight * SIMD3(Double(p.x), Double(p.y), Double(p.z))
            totalWeight += weight
        }
        modelCentre /= totalWeight
        dataCentre /= totalWeight
        // Cross-covariance S[a][b] = Σ w · model_a · data_b of the centred points.
        var s = [[Double]](repeating: [0, 0, 0], count: 3)
        for (index, point, weight) in canonical {
            let m = SIMD3(point.x, -point.y, -point.z) - modelCentre
            let p = points[index]
            let d = SIMD3(Double(p.x), Double(p.y), Double(p.z)) - dataCentre
            for a in 0..<3 { for b in 0..<3 { s[a][b] += weight * m[a] * d[b] } }
        }
        let (xx, xy, xz) = (s[0][0], s[0][1], s[0][2])
        let (yx, yy, yz) = (s[1][0], s[1][1], s[1][2])
        let (zx, zy, zz) = (s[2][0], s[2][1], s[2][2])
        let n: [[Double]] = [
            [xx + yy + zz, yz - zy, zx - xz, xy - yx],
            [yz - zy, xx - yy - zz, xy + yx, zx + xz],
            [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
            [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
        ]
        guard let q = largestEigenvector(n), q.allSatisfy({ $0.isFinite }) else { return nil }
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        // Rotation matrix of the unit quaternion; it maps model directions to camera directions.
        let r = [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
        // R = Rz(roll) · Ry(b) · Rx(a) in the camera frame (x right, y down, z away from the camera).
        // Ry(b) with b > 0 swings the nose (model −z) toward −x, the image's left, so yaw = −b; Rx(a)
        // with a > 0 swings it toward +y, down, so pitch = −a.
        let b = asin(max(-1, min(1, -r[2][0])))
        let a = atan2(r[2][1], r[2][2])
        let c = atan2(r[1][0], r[0][0])
        let degrees = 180 / Double.pi
        return HeadPose(yaw: -b * degrees, pitch: -a * degrees + pitchOffset, roll: c * degrees)
    }

    /// The eigenvector of the largest eigenvalue of a symmetric 4×4 matrix (cyclic Jacobi rotations:
    /// a handful of sweeps reach double precision, with no library).
    static func largestEigenvector(_ matrix: [[Double]]) -> [Double]? {
        var a = matrix
        var v: [[Double]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } }
        for _ in 0..<30 {
            var off = 0.0
            for p in 0..<4 { for q in (p + 1)..<4 { off += a[p][q] * a[p][q] } }
            if off < 1e-22 { break }
            for p in 0..<4 {
                for q in (p + 1)..<4 where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<4 {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<4 {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<4 {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        var best = 0
        for i in 1..<4 where a[i][i] > a[best][best] { best = i }
        let vector = (0..<4).map { v[$0][best] }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : nil
    }

    /// Eye aspect ratios and mouth opening, from pixel distances (landmarks are in frame pixels, so a
    /// non-square frame does not distort them).
    public static func features(_ points: [SIMD3<Float>]) -> FacialFeatures? {
        guard points.count >= FaceLandmarker.count else { return nil }
        func distance(_ i: Int, _ j: Int) -> Double {
            let d = SIMD2(points[i].x - points[j].x, points[i].y - points[j].y)
            return Double((d * d).sum().squareRoot())
        }
        func eyeAspectRatio(_ p: [Int]) -> Double {
            let width = distance(p[0], p[3])
            return width > 0 ? (distance(p[1], p[5]) + distance(p[2], p[4])) / (2 * width) : 0
        }
        let mouthWidth = distance(78, 308)
        return FacialFeatures(
            rightEyeAspectRatio: eyeAspectRatio([33, 160, 158, 133, 153, 144]),
            leftEyeAspectRatio: eyeAspectRatio([362, 385, 387, 263, 373, 380]),
            mouthOpening: mouthWidth > 0 ? distance(13, 14) / mouthWidth : 0)
    }
}
