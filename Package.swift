// swift-tools-version:5.9
// facecap — a terminal selfie-capture wizard for Linux.
//
// Layers, from the camera to the person:
//   CV4L2, CImageCodecs   C shims (libv4l2 behind an ops table; libjpeg/libpng with setjmp error handling)
//   FaceCapCore           pure Swift, no I/O: frames, Y4M, inference, face models, analysis, guidance
//   FaceCapIO             the edges: camera, clip files, image files, model files
//   CCurses, FaceCapTerminal  the full-screen front end: ncursesw shim; screens, live preview, keys
//   facecap               thin executable: command line and wiring
import PackageDescription

// The inference kernels are written with SIMD types and fused multiply-add. Without an FMA target
// `addProduct` becomes a call per lane (~60x slower, ../reference/swift-performance.md), so release
// builds target Haswell-class CPUs (AVX2 + FMA, every x86-64 laptop since 2013); the binary checks
// the CPU at start-up and refuses an older one with a clear message.
let optimisedSwift: [SwiftSetting] = [
    .unsafeFlags(["-target-cpu", "haswell"], .when(platforms: [.linux], configuration: .release)),
    .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "facecap",
    products: [
        .executable(name: "facecap", targets: ["facecap"]),
    ],
    targets: [
        .target(
            name: "CV4L2",
            linkerSettings: [.linkedLibrary("v4l2")]
        ),
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        .target(
            name: "CCurses",
            // stdscr, LINES and COLS live in libtinfo.so.6 on Debian 12, not in libncursesw.
            linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo")]
        ),
        .target(
            name: "FaceCapCore",
            swiftSettings: optimisedSwift
        ),
        .target(
            name: "FaceCapIO",
            dependencies: ["CV4L2", "CImageCodecs", "FaceCapCore"]
        ),
        .target(
            name: "FaceCapTerminal",
            dependencies: ["CCurses", "FaceCapCore"]
        ),
        .executableTarget(
            name: "facecap",
            dependencies: ["FaceCapCore", "FaceCapIO"]
        ),
        .testTarget(
            name: "FaceCapCoreTests",
            dependencies: ["FaceCapCore"]
        ),
        .testTarget(
            name: "FaceCapIOTests",
            dependencies: ["FaceCapIO", "FaceCapCore", "CV4L2"]
        ),
        .testTarget(
            name: "FaceCapTerminalTests",
            dependencies: ["FaceCapTerminal", "FaceCapCore", "FaceCapIO", "CCurses"]
        ),
        .testTarget(
            name: "FaceCapCLITests",
            dependencies: ["FaceCapCore"]
        ),
    ]
)
