// swift-tools-version:6.0
// facecap — a terminal selfie-capture wizard for Linux.
//
// Layers, from the camera to the person:
//   CV4L2, CImageCodecs   C shims (libv4l2 behind an ops table; libjpeg/libpng with setjmp error handling)
//   CSignals              async-signal-safe handlers: a stop flag and a self-pipe for the run loop
//   CKernels              AVX-512 convolution kernels for the inference engine (chosen at run time)
//   FaceCapCore           pure Swift (plus CKernels), no I/O: frames, Y4M, inference, face models, analysis, guidance
//   FaceCapIO             the edges: camera, clip files, image files, model files
//   CCurses, FaceCapTerminal  the full-screen front end: ncursesw shim; screens, live preview, keys
//   facecap               thin executable: command line and wiring
import PackageDescription

// The inference kernels are written with SIMD types and fused multiply-add. Without an FMA target
// `addProduct` becomes a call per lane (~60x slower, ../reference/swift-performance.md), so release
// builds target Haswell-class CPUs (AVX2 + FMA, every x86-64 laptop since 2013); the binary checks
// the CPU at start-up and refuses an older one with a clear message.
// Core is compiled with the ordinary checked -O: its parsers read untrusted files, and the hot loops
// use wrapping arithmetic (`&+`, `&*`) where overflow is impossible instead of turning checks off.
let optimisedSwift: [SwiftSetting] = [
    .unsafeFlags(["-target-cpu", "haswell"], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "facecap",
    products: [
        .executable(name: "facecap", targets: ["facecap"])
    ],
    targets: [
        .target(
            name: "CV4L2",
            linkerSettings: [.linkedLibrary("v4l2")]
        ),
        .target(name: "CSignals"),
        // AVX-512 convolution kernels for the inference engine, picked at run time on CPUs that have AVX-512F
        // (per-function target attributes: the rest of the build stays AVX2).
        .target(name: "CKernels"),
        // libjpeg-turbo is linked in from its static archive (`-l:libjpeg.a`, GNU ld's "this file" form, which
        // SwiftPM passes on as it is, so no unsafe flag): Debian ships its ABI as libjpeg62-turbo, Ubuntu only as
        // libjpeg-turbo8, so one .deb that depends on either cannot install and run on both (issue 34). A
        // libjpeg-turbo security fix therefore needs a facecap rebuild (README, "Install as a Debian package").
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary(":libjpeg.a"), .linkedLibrary("png16")]
        ),
        // libcurl for the validation server's HTTP upload (README, "Validation server contract").
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .target(
            name: "CCurses",
            // stdscr, LINES and COLS live in libtinfo.so.6 on Debian 12, not in libncursesw.
            // zlib: kitty graphics payloads (o=z).
            linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo"), .linkedLibrary("z")]
        ),
        .target(
            name: "FaceCapCore",
            dependencies: ["CKernels"],
            swiftSettings: optimisedSwift
        ),
        .target(
            name: "FaceCapIO",
            dependencies: ["CV4L2", "CImageCodecs", "CSignals", "CCurl", "FaceCapCore"]
        ),
        .target(
            name: "FaceCapTerminal",
            dependencies: ["CCurses", "FaceCapCore"]
        ),
        .executableTarget(
            name: "facecap",
            dependencies: ["FaceCapCore", "FaceCapIO", "FaceCapTerminal"]
        ),
        // Fuzz targets (issue 11): the entry points in a library so the ordinary test build replays the
        // committed corpora through them; `facecap-fuzz` is the libFuzzer binary (`make fuzz`).
        .target(
            name: "FaceCapFuzz",
            dependencies: ["FaceCapCore", "FaceCapIO"]
        ),
        .executableTarget(
            name: "facecap-fuzz",
            dependencies: ["FaceCapFuzz"]
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
            name: "FaceCapFuzzTests",
            dependencies: ["FaceCapFuzz"]
        ),
        .testTarget(
            name: "FaceCapCLITests",
            dependencies: ["FaceCapCore"]
        ),
    ]
)
