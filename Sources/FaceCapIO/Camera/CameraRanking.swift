import FaceCapCore

/// Where a capture node comes in the order facecap tries cameras, and why: a laptop lists its colour camera
/// beside an infrared one (face unlock), virtual ones (v4l2loopback: OBS, a vendor's relay) and, on MIPI laptops,
/// nodes that give raw sensor data only. Colour before infrared, physical before virtual, a node that gives
/// 640×480 or more at 15 fps or more before a slower one, then the nodes' own order (/dev/video0 first).
/// Nothing is refused here: a virtual or slow camera is still used when it is the best there is.
public struct CameraRank: Equatable, Sendable {
    /// What the node's pictures are.
    public enum Kind: Int, Comparable, Sendable {
        /// Colour pictures in a format facecap reads (YUYV, NV12, YU12, YV12, RGB; or RGB24 through libv4l2).
        case colour = 0
        /// An infrared camera: its name says IR, it gives grey pictures only, or MJPEG at 640×360 only.
        case infrared
        /// Raw Bayer data only (MIPI cameras without libcamera): no picture without an image processor.
        case rawBayer
        /// No format facecap reads.
        case unreadable

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// The JSON word.
        public var name: String {
            switch self {
            case .colour: "colour"
            case .infrared: "infrared"
            case .rawBayer: "raw-bayer"
            case .unreadable: "unreadable"
            }
        }
    }

    /// Why a node is taken for infrared: its V4L2 name, its USB interface's name (sysfs), grey formats only, MJPEG at
    /// 640×360 only, or a frame whose chroma was flat at 128 (`CameraDevice.chromaIsFlat`).
    public enum InfraredSign: String, Sendable {
        case name
        case interfaceName = "interface-name"
        case greyOnly = "grey-only"
        case mjpegAt640x360 = "mjpeg-640x360"
        case flatChroma = "flat-chroma"
    }

    /// A size and the fastest rate it is offered at.
    public struct Mode: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Double

        var area: Int { width * height }
    }

    public var kind: Kind
    public var infraredSign: InfraredSign?
    /// The node's USB interface name, which the reason quotes when it is what says IR.
    var interfaceName: String?
    /// A v4l2loopback node: another program's picture (OBS, a relay of a MIPI camera).
    public var isVirtual: Bool
    /// The mode facecap would read: the smallest size of at least 640×480 that keeps 15 fps or more, else the
    /// largest that keeps 15 fps, else the fastest; nil when no readable format lists a size with a rate.
    public var mode: Mode?
    /// `mode` is 640×480 or more at 15 fps or more.
    public var isFastEnough: Bool

    /// 640×480 at 15 fps: below this a camera is ranked after those that reach it.
    public static let minimumSize = (width: 640, height: 480)
    public static let minimumRate = 15.0

    /// The formats facecap reads itself, in the order it prefers them (cv4l2's readable_formats); MJPEG last, decoded
    /// by facecap's own decoder.
    public static let preferenceOrder = [
        "YUYV", "NV12", "YU12", "YV12", "RGB3", "BGR3", "XR24", "AR24", "BGR4", "BX24",
        "BA24", "XB24", "AB24", "MJPG",
    ]

    /// 640×480 or more at 15 fps or more.
    static func isGood(_ mode: Mode) -> Bool {
        mode.width >= minimumSize.width && mode.height >= minimumSize.height && mode.framesPerSecond >= minimumRate
    }

    /// The format facecap asks for (cv4l2's `preferred_format`): of its own formats (and libv4l2's RGB24), the one
    /// whose good mode (640×480 or more at 15 fps or more) is the smallest, the first in cv4l2's order among equals:
    /// MJPEG on a USB 2 camera whose YUYV gives 1280×720 at 10 fps and MJPEG 30, or whose YUYV starts at 1280×720
    /// where MJPEG gives 640×480; else the first it reads at all.
    public var format: String?

    /// With `format` (--format), only that format's sizes make the mode.
    public init(of device: CameraDevice, format forced: String? = nil) {
        let native = device.formats.filter { !$0.isEmulated }
        let candidates: [CameraFormat]
        if let forced {
            candidates = device.formats.filter { $0.fourcc == forced }
        } else {
            let own = Self.preferenceOrder.compactMap { code in native.first { $0.fourcc == code } }
            candidates = own + device.formats.filter { $0.fourcc == "RGB3" && $0.isEmulated }
        }
        let modes = candidates.map { (format: $0.fourcc, mode: CameraRank.bestMode($0.sizes)) }
        // The smallest good mode across the formats (MJPEG at 640×480 before YUYV that starts at 1280×720), the
        // preferred format among equals (min keeps the first of equals, and the candidates are in preference order).
        let good = modes.filter { $0.mode.map(CameraRank.isGood) ?? false }
        let chosen = good.min { ($0.mode?.area ?? 0) < ($1.mode?.area ?? 0) } ?? modes.first { $0.mode != nil }
        format = chosen?.format ?? forced
        mode = chosen?.mode
        let readable = candidates
        isFastEnough = mode.map(CameraRank.isGood) ?? false
        isVirtual = device.driver == "v4l2 loopback" || device.bus.hasPrefix("platform:v4l2loopback")
        infraredSign =
            CameraRank.infraredSign(card: device.card, interface: device.interfaceName, native: native)
            ?? (device.chromaIsFlat ? .flatChroma : nil)
        interfaceName = device.interfaceName
        // Raw Bayer data stays raw Bayer though libv4l2 lists its own RGB24 of it (it debayers 8-bit data with no
        // exposure or white balance: no picture a person would call one).
        if CameraRank.needsLibcamera(device, native: native) {
            kind = .rawBayer
        } else if readable.isEmpty || device.isMultiPlanarOnly {
            kind = infraredSign != nil ? .infrared : .unreadable
        } else {
            kind = infraredSign == nil ? .colour : .infrared
        }
    }

    /// The order key: lower comes first.
    var key: (Int, Int, Int) { (kind.rawValue, isVirtual ? 1 : 0, isFastEnough ? 0 : 1) }

    /// `devices` in the order facecap tries them, each with its rank (a stable sort: equal ranks keep their order).
    public static func ranked(_ devices: [CameraDevice]) -> [(device: CameraDevice, rank: CameraRank)] {
        devices.enumerated()
            .map { (index: $0.offset, device: $0.element, rank: CameraRank(of: $0.element)) }
            .sorted { a, b in a.rank.key != b.rank.key ? a.rank.key < b.rank.key : a.index < b.index }
            .map { (device: $0.device, rank: $0.rank) }
    }

    /// The node to open when none was named: `remembered` (the person's last choice) when it is among the
    /// devices and gives colour pictures, else the first in rank.
    public static func choose(_ devices: [CameraDevice], remembered: String? = nil) -> CameraDevice? {
        if let remembered, let device = devices.first(where: { $0.path == remembered }),
            CameraRank(of: device).kind == .colour
        {
            return device
        }
        return ranked(devices).first?.device
    }

    /// The reasons in the person's words, most telling first ("colour, 640x480 at 30 fps").
    public var reasons: [String] {
        var reasons: [String] = []
        switch kind {
        case .colour:
            reasons.append(Words.text(.devicesRankColour))
        case .infrared:
            switch infraredSign {
            case .name?: reasons.append(Words.text(.devicesRankInfraredName))
            case .interfaceName?:
                reasons.append(Words.devicesRankInfraredInterface(name: interfaceName ?? ""))
            case .mjpegAt640x360?: reasons.append(Words.text(.devicesRankInfraredMJPEG))
            case .flatChroma?: reasons.append(Words.text(.devicesRankInfraredChroma))
            case .greyOnly?, nil: reasons.append(Words.text(.devicesRankInfraredGrey))
            }
        case .rawBayer:
            reasons.append(Words.text(.devicesRankRawBayer))
        case .unreadable:
            reasons.append(Words.text(.devicesRankUnreadable))
        }
        if isVirtual { reasons.append(Words.text(.devicesRankVirtual)) }
        if let mode, kind == .colour || kind == .infrared {
            let size = "\(mode.width)x\(mode.height)", fps = CameraDeviceText.rate(mode.framesPerSecond)
            reasons.append(
                isFastEnough
                    ? Words.devicesRankMode(size: size, fps: fps)
                    : Words.devicesRankSlowMode(size: size, fps: fps))
        }
        return reasons
    }

    // MARK: - Signs

    static func infraredSign(card: String, interface: String? = nil, native: [CameraFormat]) -> InfraredSign? {
        if saysInfrared(card) { return .name }
        // A UVC camera's card is often its product name for both functions ("Integrated_Webcam_HD"), while the USB
        // interface of each function has a name of its own ("Integrated IR Camera", "IR Camera").
        if let interface, saysInfrared(interface) { return .interfaceName }
        guard !native.isEmpty else { return nil }
        if native.allSatisfy({ greyFormats.contains($0.fourcc) }) { return .greyOnly }
        if native.allSatisfy({ $0.fourcc == "MJPG" }),
            native.flatMap(\.sizes).allSatisfy({ $0.width == 640 && $0.height == 360 }),
            !native.flatMap(\.sizes).isEmpty
        {
            return .mjpegAt640x360
        }
        return nil
    }

    /// A node only libcamera makes a picture of: raw Bayer formats only, or a media-controller node (IO_MC) that lists
    /// Bayer among others. IPU6 ISYS lists UYVY, YUYV, RGB565 and BGR24 beside its Bayer formats
    /// (ipu6-isys-video.c, `ipu6_isys_pfmts`), yet streams nothing until its pipeline is set up, so its YUYV is no
    /// colour camera. The driver's name stands in for IO_MC where the node does not report it.
    static func needsLibcamera(_ device: CameraDevice, native: [CameraFormat]) -> Bool {
        guard !native.isEmpty else { return false }
        if native.allSatisfy({ isBayer($0.fourcc) }) { return true }
        guard native.contains(where: { isBayer($0.fourcc) }) else { return false }
        return device.isMediaControllerNode || isMIPIDriver(device.driverName) || isMIPIDriver(device.driver)
    }

    /// Intel IPU6/IPU7 input systems and Qualcomm CAMSS: "isys", "intel_ipu6_isys", "intel-ipu7", "qcom-camss".
    static func isMIPIDriver(_ name: String) -> Bool {
        let name = name.lowercased()
        return ["isys", "ipu6", "ipu7", "camss"].contains { name.contains($0) }
    }

    /// "USB2.0 IR", "Integrated IR Camera", "HP IR Camera", "…: Infrared Camera": IR as a word of its own.
    static func saysInfrared(_ name: String) -> Bool {
        name.split { !$0.isLetter && !$0.isNumber }.contains("IR") || name.lowercased().contains("infrared")
    }

    /// The MIPI case: no node gives colour pictures and at least one gives raw Bayer data only, so the camera needs
    /// libcamera (`CameraError.rawBayerOnly`); nil otherwise. An infrared node beside them (the USB face-unlock camera
    /// of many MIPI laptops) does not count: its grey picture is no selfie, and it stays one key d away.
    /// `underLibcameraAdapter`: facecap runs under libcamerify (`CameraOps.runsUnderLibcameraAdapter`).
    public static func rawBayerCamera(
        _ devices: [CameraDevice],
        underLibcameraAdapter: Bool = CameraOps.runsUnderLibcameraAdapter
    )
        -> RawBayerCamera?
    {
        let ranks = devices.map { (device: $0, rank: CameraRank(of: $0)) }
        guard !ranks.contains(where: { $0.rank.kind == .colour }) else { return nil }
        let raw = ranks.filter { $0.rank.kind == .rawBayer }.map(\.device)
        guard let first = raw.first else { return nil }
        return RawBayerCamera(
            driver: first.driverName, card: first.card, nodes: raw.map(\.path),
            underLibcameraAdapter: underLibcameraAdapter)
    }

    /// Monochrome formats infrared cameras give (V4L2_PIX_FMT_GREY, Y10, Y12, Y16, Y10 packed, RealSense's
    /// interleaved pairs).
    static let greyFormats: Set<String> = ["GREY", "Y10", "Y12", "Y14", "Y16", "Y10B", "Y10P", "Y8I", "Y12I"]

    /// The raw Bayer fourccs of videodev2.h: 8 to 16 bits, MIPI-packed, A-law/µ-law/DPCM-compressed, and IPU3's.
    static let bayerFormats: Set<String> = [
        "BA81", "GBRG", "GRBG", "RGGB", "BG10", "GB10", "BA10", "RG10", "pBAA", "pGAA", "pgAA", "pRAA",
        "aBA8", "aGA8", "agA8", "aRA8", "bBA8", "bGA8", "BD10", "bRA8", "BG12", "GB12", "BA12", "RG12",
        "pBCC", "pGCC", "pgCC", "pRCC", "BG14", "GB14", "GR14", "RG14", "pBEE", "pGEE", "pgEE", "pREE",
        "BYR2", "GB16", "GR16", "RG16", "ip3b", "ip3g", "ip3G", "ip3r",
    ]

    static func isBayer(_ fourcc: String) -> Bool { bayerFormats.contains(fourcc) }

    /// The smallest size of at least 640×480 that keeps 15 fps, else the largest that keeps 15 fps, else the fastest.
    static func bestMode(_ sizes: [CameraFrameSize]) -> Mode? {
        let modes: [Mode] = sizes.compactMap { size in
            let fastest = max(size.frameRates.max() ?? 0, size.frameRateRange?.upperBound ?? 0)
            guard fastest > 0 else { return nil }
            if size.kind != .discrete, size.minWidth <= 640, size.minHeight <= 480, size.width >= 640,
                size.height >= 480
            {
                return Mode(width: 640, height: 480, framesPerSecond: fastest)
            }
            return Mode(width: size.width, height: size.height, framesPerSecond: fastest)
        }
        let good = modes.filter {
            $0.width >= minimumSize.width && $0.height >= minimumSize.height && $0.framesPerSecond >= minimumRate
        }
        if let smallest = good.min(by: {
            ($0.width * $0.height, -$0.framesPerSecond) < ($1.width * $1.height, -$1.framesPerSecond)
        }) {
            return smallest
        }
        // None is good enough. The frame rate first (the guidance follows a moving person): the largest size that
        // keeps 15 fps (smaller than 640×480, then), else the fastest mode, the smaller of equals.
        if let largest = modes.filter({ $0.framesPerSecond >= minimumRate })
            .max(by: { $0.width * $0.height < $1.width * $1.height })
        {
            return largest
        }
        return modes.max { ($0.framesPerSecond, -$0.width * $0.height) < ($1.framesPerSecond, -$1.width * $1.height) }
    }
}
