internal import CV4L2
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// The device calls the camera code makes: the real libv4l2 ones, or a test fake's.
public struct CameraOps {
    var table: cv4l2_ops

    init(_ table: cv4l2_ops) { self.table = table }

    /// v4l2_open/v4l2_close/v4l2_ioctl/v4l2_mmap/v4l2_munmap and poll(2); the C library's own calls instead when
    /// libcamera's V4L2 adapter is preloaded (`libcamerify facecap`), whose replacements libv4l2 would go past.
    public static var system: CameraOps {
        let preload = getenv("LD_PRELOAD").map { String(cString: $0) }
        return CameraOps(underLibcameraAdapter(preload: preload) ? cv4l2_plain_ops() : cv4l2_system_ops())
    }

    /// This process runs with libcamera's V4L2 adapter preloaded (`libcamerify facecap`).
    public static var runsUnderLibcameraAdapter: Bool {
        underLibcameraAdapter(preload: getenv("LD_PRELOAD").map { String(cString: $0) })
    }

    /// `LD_PRELOAD` names libcamera's v4l2-compat.so (libcamerify puts its full path there).
    static func underLibcameraAdapter(preload: String?) -> Bool {
        guard let preload else { return false }
        // ld.so separates entries with colons or spaces.
        return preload.split { $0 == ":" || $0 == " " }
            .contains { $0.hasSuffix("/v4l2-compat.so") || $0 == "v4l2-compat.so" }
    }
}

/// One picture format a camera offers, with its sizes and frame rates.
public struct CameraFormat: Equatable, Sendable {
    /// Four-character code, e.g. "YUYV", "MJPG", "RGB3".
    public var fourcc: String
    /// The driver's description, e.g. "YUYV 4:2:2".
    public var description: String
    public var isCompressed: Bool
    /// Produced by libv4l2 converting another format, not by the camera itself.
    public var isEmulated: Bool
    public var sizes: [CameraFrameSize]

    public init(fourcc: String, description: String, isCompressed: Bool, isEmulated: Bool, sizes: [CameraFrameSize]) {
        self.fourcc = fourcc
        self.description = description
        self.isCompressed = isCompressed
        self.isEmulated = isEmulated
        self.sizes = sizes
    }
}

/// A frame size a format offers: one discrete size, or a stepwise/continuous range summarised by its bounds.
public struct CameraFrameSize: Equatable, Sendable {
    public enum Kind: String, Sendable { case discrete, stepwise, continuous }
    public var kind: Kind
    /// The size (discrete), or the largest size (stepwise/continuous).
    public var width: Int
    public var height: Int
    /// The smallest size and the steps; equal to width/height and 0 for a discrete size.
    public var minWidth: Int
    public var minHeight: Int
    public var stepWidth: Int
    public var stepHeight: Int
    /// Discrete frame rates in frames per second, fastest first (for a range: the rates at the largest size).
    public var frameRates: [Double]
    /// When the driver gives the frame interval as a range instead of a list.
    public var frameRateRange: ClosedRange<Double>?

    public init(
        kind: Kind, width: Int, height: Int, minWidth: Int, minHeight: Int, stepWidth: Int, stepHeight: Int,
        frameRates: [Double], frameRateRange: ClosedRange<Double>?
    ) {
        self.kind = kind
        self.width = width
        self.height = height
        self.minWidth = minWidth
        self.minHeight = minHeight
        self.stepWidth = stepWidth
        self.stepHeight = stepHeight
        self.frameRates = frameRates
        self.frameRateRange = frameRateRange
    }
}

/// What scanning /dev found: the usable capture devices, and the nodes that could not be inspected.
public struct CameraScan: Sendable {
    public var devices: [CameraDevice]
    /// E.g. permission denied on a node: shown to the user, since it hides a camera.
    public var problems: [CameraError]
}

/// A V4L2 video-capture node: its names and what it can stream.
public struct CameraDevice: Equatable, Sendable {
    public var path: String
    /// The camera's name (V4L2 `card`), e.g. "Integrated Camera: Integrated C".
    public var card: String
    public var driver: String
    /// Where it is attached (V4L2 `bus_info`), e.g. "usb-0000:00:14.0-8".
    public var bus: String
    public var formats: [CameraFormat]
    /// The name of the USB interface the node belongs to (sysfs `device/interface`), e.g. "Integrated IR Camera":
    /// laptops name their infrared function there when the V4L2 card name does not say it.
    public var interfaceName: String?
    /// The kernel driver of the hardware behind the node (the sysfs `device/driver` link's name), e.g.
    /// "intel_ipu6_isys" or "qcom-camss" where QUERYCAP's driver may be a generic one; nil when sysfs has none.
    public var hardwareDriver: String?
    /// A frame from the node had its chroma flat at 128 while its luma varied: an infrared picture in YUYV (set by
    /// whoever streamed from it, `SourceOpener`; a scan cannot know it without turning the camera on).
    public var chromaIsFlat = false
    /// QUERYCAP's `device_caps` (0 when not known).
    public var deviceCaps: UInt32 = 0
    /// The controls facecap may steer, as `facecap devices` lists them (`CameraDeviceControl.read`; a scan leaves
    /// them empty).
    public var controls: [CameraDeviceControl] = []

    /// V4L2_CAP_IO_MC: the node streams only once its media-controller pipeline is set up (IPU6 ISYS, CAMSS);
    /// UVC and vivid do not set it. Written out because older videodev2.h headers lack it.
    public static let ioMediaController: UInt32 = 0x2000_0000

    /// The node belongs to a media-controller pipeline (`V4L2_CAP_IO_MC`).
    public var isMediaControllerNode: Bool { deviceCaps & Self.ioMediaController != 0 }

    /// Multi-planar capture only (CAMSS): listed to tell a MIPI camera, never opened (cv4l2 reads single-planar).
    public var isMultiPlanarOnly: Bool {
        deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 && deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) == 0
    }

    public init(
        path: String, card: String, driver: String, bus: String, formats: [CameraFormat],
        interfaceName: String? = nil, hardwareDriver: String? = nil, deviceCaps: UInt32 = 0
    ) {
        self.path = path
        self.card = card
        self.driver = driver
        self.bus = bus
        self.formats = formats
        self.interfaceName = interfaceName
        self.hardwareDriver = hardwareDriver
        self.deviceCaps = deviceCaps
    }

    /// The driver to name the camera by: the hardware's (sysfs), else the V4L2 one.
    public var driverName: String { hardwareDriver ?? driver }

    /// The video-capture nodes under `directory` (/dev/video*, in number order); metadata nodes and
    /// nodes that cannot be opened are left out.
    public static func list(directory: String = "/dev", ops: CameraOps = .system, sysfs: String? = nil)
        -> [CameraDevice]
    {
        scan(directory: directory, ops: ops, sysfs: sysfs).devices
    }

    /// Like `list`, and also reports the nodes that could not be opened (permission, busy) and why. `sysfs` is where
    /// sysfs is mounted (tests give a folder of their own); see `sysfsRoot` when it is nil.
    public static func scan(
        directory: String = "/dev", ops: CameraOps = .system, sysfs: String? = nil,
        detail: CameraQueryDetail = .everything
    ) -> CameraScan {
        var result = CameraScan(devices: [], problems: [])
        let sysfs = sysfsRoot(sysfs, directory: directory)
        for path in videoNodePaths(in: directory) {
            do {
                if var device = try query(path: path, ops: ops, detail: detail) {
                    if let sysfs { device.readSysfs(sysfs) }
                    result.devices.append(device)
                }
            } catch {
                switch error {
                case .noSuchDevice, .notCaptureDevice, .disconnected: continue  // gone, or not V4L2 capture
                default: result.problems.append(error)
                }
            }
        }
        return result
    }

    /// Where to read the nodes' sysfs entries: `sysfs` when given, the real /sys only for the real /dev, else none
    /// (nodes in another folder are a test's, and the host's /sys/class/video4linux/videoN is another device).
    public static func sysfsRoot(_ sysfs: String?, directory: String) -> String? {
        sysfs ?? (directory == "/dev" || directory == "/dev/" ? "/sys" : nil)
    }

    /// /dev/videoN paths under `directory`, sorted by N.
    public static func videoNodePaths(in directory: String) -> [String] {
        let numbered: [(Int, String)] = CameraSupport.directoryEntries(directory).compactMap { name in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0 else { return nil }
            return (number, name)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return numbered.sorted { $0.0 < $1.0 }.map { base + $0.1 }
    }

    /// Opens `path` and reads its names, formats, sizes and frame rates. Returns nil when the node is a
    /// V4L2 device without streaming video capture (e.g. a UVC metadata node).
    public static func query(
        path: String, ops: CameraOps = .system, detail: CameraQueryDetail = .everything
    ) throws(CameraError) -> CameraDevice? {
        var table = ops.table
        let fd = table.open(table.context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            throw CameraError.from(stage: CV4L2_STAGE_OPEN, code: errno, path: path, procRoot: "/proc")
        }
        defer { _ = table.close(table.context, fd) }
        var cap = v4l2_capability()
        let status = cv4l2_xioctl(&table, fd, CV4L2_VIDIOC_QUERYCAP, &cap)
        if status != 0 {
            throw CameraError.from(stage: CV4L2_STAGE_QUERYCAP, code: status, path: path, procRoot: "/proc")
        }
        let caps = cv4l2_node_caps(&cap)
        // The same test the camera applies when it opens a node: video capture with streaming I/O.
        let needed = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
        let device = { (formats: [CameraFormat]) in
            CameraDevice(
                path: path, card: CameraSupport.cString(cap.card), driver: CameraSupport.cString(cap.driver),
                bus: CameraSupport.cString(cap.bus_info), formats: formats, deviceCaps: caps)
        }
        if caps & needed == needed { return device(enumerateFormats(&table, fd, detail: detail)) }
        // A multi-planar media-controller node (CAMSS has only those) is kept when it lists Bayer formats: it tells
        // a MIPI camera, though facecap never opens it (`CameraRank`: raw-bayer). Others stay out as before.
        let multiPlanar = UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING) | ioMediaController
        guard caps & multiPlanar == multiPlanar else { return nil }
        let formats = enumerateFormats(&table, fd, type: V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue, detail: detail)
        return formats.contains { CameraRank.isBayer($0.fourcc) } ? device(formats) : nil
    }
}

// MARK: - sysfs

extension CameraDevice {
    /// Fills in `interfaceName` and `hardwareDriver` from /sys/class/video4linux/videoN (N from the node's name).
    mutating func readSysfs(_ sysfs: String) {
        guard let name = path.split(separator: "/").last, name.hasPrefix("video") else { return }
        let folder = "\(sysfs)/class/video4linux/\(name)"
        let interface = CameraSupport.readSmallFile(folder + "/device/interface").map(CameraSupport.trimmedWhitespace)
        // Not the node's own `name` file: for ISYS, vivid or v4l2loopback that is the V4L2 name, no USB interface.
        interfaceName = interface.flatMap { $0.isEmpty ? nil : $0 }
        // The link points at ../../../bus/…/drivers/NAME: its last component is the driver's name.
        if let link = POSIX.readLink(folder + "/device/driver"),
            let driver = link.split(separator: "/").last, !driver.isEmpty
        {
            hardwareDriver = String(driver)
        }
    }
}

// MARK: - Enumeration

/// Which formats a query reads the sizes and frame rates of. Every one for `facecap devices`; for choosing and opening
/// a camera only those `CameraRank` weighs (its own formats in `CameraRank.preferenceOrder`, libv4l2's RGB3, and a
/// format forced with --format): vivid lists dozens of formats with up to twelve frame rates at each of six sizes,
/// one ioctl each.
public enum CameraQueryDetail: Sendable, Equatable {
    case everything
    case ranking(forced: String?)

    func readsSizes(of fourcc: String, emulated: Bool) -> Bool {
        switch self {
        case .everything: return true
        case .ranking(let forced):
            return fourcc == forced || (emulated ? fourcc == "RGB3" : CameraRank.preferenceOrder.contains(fourcc))
        }
    }
}

/// Upper bound on any one list the driver hands out, so a buggy driver (or fake) cannot loop forever.
private let maxEntries: UInt32 = 256

private func enumerateFormats(
    _ ops: inout cv4l2_ops, _ fd: Int32,
    type: UInt32 = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue, detail: CameraQueryDetail
) -> [CameraFormat] {
    var formats: [CameraFormat] = []
    for index in 0..<maxEntries {
        var description = v4l2_fmtdesc()
        description.index = index
        description.type = type
        guard cv4l2_xioctl(&ops, fd, CV4L2_VIDIOC_ENUM_FMT, &description) == 0 else { break }
        let emulated = description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
        let fourcc = CameraSupport.fourccString(description.pixelformat)
        formats.append(
            CameraFormat(
                fourcc: fourcc,
                description: CameraSupport.cString(description.description),
                isCompressed: description.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                isEmulated: emulated,
                sizes: detail.readsSizes(of: fourcc, emulated: emulated)
                    ? enumerateSizes(&ops, fd, pixelFormat: description.pixelformat, raw: !emulated) : []))
    }
    return formats
}

/// A format the camera gives itself is asked of the camera (`raw`: `cv4l2_raw_xioctl`, past libv4l2, which answers
/// each frame interval of RGB3, BGR3, YU12 and YV12 with a TRY_FMT of every format the camera has, native or not:
/// 11 832 ioctls for one `facecap devices` on vivid); a format libv4l2 makes by converting is asked of libv4l2.
private func enumerateSizes(_ ops: inout cv4l2_ops, _ fd: Int32, pixelFormat: UInt32, raw: Bool) -> [CameraFrameSize] {
    var sizes: [CameraFrameSize] = []
    for index in 0..<maxEntries {
        var size = v4l2_frmsizeenum()
        size.index = index
        size.pixel_format = pixelFormat
        guard enumerate(&ops, fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &size, raw: raw) else { break }
        if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            let width = Int(size.discrete.width), height = Int(size.discrete.height)
            let (rates, range) = enumerateRates(
                &ops, fd, pixelFormat: pixelFormat, width: width, height: height, raw: raw)
            sizes.append(
                CameraFrameSize(
                    kind: .discrete, width: width, height: height, minWidth: width,
                    minHeight: height, stepWidth: 0, stepHeight: 0, frameRates: rates,
                    frameRateRange: range))
            continue
        }
        // Stepwise or continuous: one entry describes the whole range.
        let step = size.stepwise
        let width = Int(step.max_width), height = Int(step.max_height)
        let (rates, range) = enumerateRates(&ops, fd, pixelFormat: pixelFormat, width: width, height: height, raw: raw)
        let kind: CameraFrameSize.Kind = size.type == V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue ? .continuous : .stepwise
        sizes.append(
            CameraFrameSize(
                kind: kind, width: width, height: height, minWidth: Int(step.min_width),
                minHeight: Int(step.min_height), stepWidth: Int(step.step_width),
                stepHeight: Int(step.step_height), frameRates: rates, frameRateRange: range))
        break
    }
    return sizes
}

private func enumerateRates(
    _ ops: inout cv4l2_ops, _ fd: Int32, pixelFormat: UInt32, width: Int,
    height: Int, raw: Bool
) -> ([Double], ClosedRange<Double>?) {
    var rates: [Double] = []
    for index in 0..<maxEntries {
        var interval = v4l2_frmivalenum()
        interval.index = index
        interval.pixel_format = pixelFormat
        interval.width = UInt32(width)
        interval.height = UInt32(height)
        guard enumerate(&ops, fd, CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &interval, raw: raw) else { break }
        if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
            if let rate = framesPerSecond(interval.discrete) { rates.append(rate) }
            continue
        }
        // A range of intervals: the shortest interval is the fastest rate.
        if let fastest = framesPerSecond(interval.stepwise.min), let slowest = framesPerSecond(interval.stepwise.max) {
            return (rates, min(fastest, slowest)...max(fastest, slowest))
        }
        break
    }
    return (rates.sorted(by: >), nil)
}

/// One enumeration ioctl through libv4l2, or past it (`raw`); true when it answered.
private func enumerate<Entry>(
    _ ops: inout cv4l2_ops, _ fd: Int32, _ request: UInt, _ entry: inout Entry, raw: Bool
) -> Bool {
    (raw ? cv4l2_raw_xioctl(&ops, fd, request, &entry) : cv4l2_xioctl(&ops, fd, request, &entry)) == 0
}

private func framesPerSecond(_ interval: v4l2_fract) -> Double? {
    guard interval.numerator > 0, interval.denominator > 0 else { return nil }
    return Double(interval.denominator) / Double(interval.numerator)
}
