import CV4L2
import XCTest

@testable import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// A scripted V4L2 device behind the shim's ops table: formats, sizes and rates to enumerate, errno
/// faults to inject per request, and a queue of stream events (frames, timeouts, EINTR, EIO, unplug).
///
/// It keeps the buffer queue like a driver does, so tests can check that every dequeued buffer goes back
/// and that STREAMOFF, munmap and close come in that order.
final class FakeV4L2Device {
    struct Format {
        var fourcc: UInt32
        var description: String
        var emulated = false
        var compressed = false
        var sizes: [(width: Int, height: Int)]
        /// Stepwise sizes instead of `sizes`: (min, max, step) per side.
        var stepwise: (minW: Int, maxW: Int, stepW: Int, minH: Int, maxH: Int, stepH: Int)?
        var rates: [Int] = [30, 15]
    }

    struct Node {
        var card = "Fake Camera"
        var driver = "fakecam"
        var bus = "platform:fake-0"
        var capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING) | UInt32(V4L2_CAP_DEVICE_CAPS)
        var deviceCaps = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
        var formats: [Format]
        var timePerFrame = true
        /// Extra bytes at the end of each row (bytesperline > width × bytes per pixel).
        var rowPadding = 0
        /// A listed format S_FMT will not hand out (it answers with the first format instead).
        var refusedFourcc: UInt32?
        /// S_FMT fails with EINVAL, as a relay of one fixed format does; G_FMT gives the first format and size.
        var refusesSetFormat = false
    }

    struct FrameSpec {
        var fill: UInt8 = 0x80
        /// Instead of `fill`: the buffer's bytes (a picture in the negotiated format, rows `stride` apart).
        var bytes: [UInt8]?
        /// Instead of `fill`: each row's pixels hold the row number (mod 200), row padding holds 0xEE.
        var rowPattern = false
        /// nil = a whole frame.
        var bytesUsed: Int?
        var errorFlag = false
        /// Seconds after STREAMON for the buffer timestamp.
        var time: Double?
        var sequence: UInt32?
    }

    enum Event {
        case frame(FrameSpec)
        case pollTimeout
        case pollInterrupted
        case dqbufError(Int32)
        /// EIO from DQBUF after the "driver" took a buffer off the queue without handing it over.
        case dqbufErrorLosingBuffer
        /// Unplug: poll reports POLLERR|POLLHUP and every ioctl fails with ENODEV from now on.
        case disconnect
    }

    /// A control as a driver keeps it: its range and value (a rectangle for the UVC region of interest).
    struct Control {
        var minimum: Int
        var maximum: Int
        var step = 1
        var value: Int
        var flags: UInt32 = 0
        var rect: v4l2_rect?
        /// What VIDIOC_QUERY_EXT_CTRL says of it: its name, type (integer unless set) and default (its value unless
        /// set); a menu's items by index (VIDIOC_QUERYMENU: EINVAL for an index not here).
        var name = ""
        var type = V4L2_CTRL_TYPE_INTEGER.rawValue
        var defaultValue: Int?
        var menu: [Int: String] = [:]
    }

    enum BufferState { case idle, queued, user }

    struct Buffer {
        var memory: UnsafeMutableRawPointer
        var length: Int
        var offset: UInt32
        var state: BufferState = .idle
        var mapped = false
    }

    var nodes: [String: Node] = [:]
    var openErrors: [String: Int32] = [:]
    /// Errnos to fail successive calls of a request with (one per call, then success).
    var ioctlErrors: [UInt: [Int32]] = [:]
    var mmapError: Int32?
    var script: [Event] = []
    /// The controls the device offers, by ID (a missing one answers EINVAL, as a driver does).
    var controls: [UInt32: Control] = [:]
    /// With nothing scripted: the next frame, made from the device's state now (a camera whose picture follows its
    /// controls). Nil: nothing scripted is a stalled camera.
    var liveFrame: ((FakeV4L2Device) -> FrameSpec)?
    /// Frames a control write takes to reach the picture (`appliedControl`), as a camera applies it a frame or two
    /// after the write; 0: at once.
    var controlLatency = 0
    /// The controls as they stood at each of the newest live frames, oldest first (`controlLatency` + 1 of them).
    private var controlHistory: [[UInt32: Control]] = []
    /// Every control write that succeeded, in order: (id, value; a rectangle's left edge).
    private(set) var controlWrites: [(id: UInt32, value: Int)] = []

    private(set) var log: [String] = []
    /// Each size and frame-interval enumeration by who asked: "raw YUYV" (the ops table's `raw_ioctl`, the camera
    /// itself, which knows no converted format) or "converting RGB3" (its `ioctl`, libv4l2's).
    private(set) var enumerations: [String] = []
    private var rawCall = false
    private(set) var openFds: [Int32: String] = [:]
    private(set) var buffers: [Buffer] = []
    private(set) var streaming = false
    private(set) var disconnected = false
    private(set) var maxUserOwned = 0
    private(set) var userOwnedAtStreamOff: Int?
    private(set) var dequeued = 0
    private(set) var requeued = 0
    private(set) var lastRequestedSize: (width: Int, height: Int)?
    private(set) var lastRequestedFourcc: UInt32?
    private(set) var lastTimePerFrame: (numerator: UInt32, denominator: UInt32)?
    /// The longest wait any poll call asked for, in milliseconds.
    private(set) var longestPollTimeout: Int32 = 0
    private var nextFd: Int32 = 100
    private var current: (node: Node, format: Format, width: Int, height: Int, stride: Int, size: Int)?
    private var streamOnTime = 0.0
    private var sequence: UInt32 = 0

    /// Plugged in again after `.disconnect`: open handles keep failing, a new open works (as vivid's `disconnect`).
    func reconnect() {
        disconnected = false
        // The driver let go of the old stream when the device went away.
        streaming = false
        for index in buffers.indices {
            buffers[index].state = .idle
            buffers[index].mapped = false
        }
    }

    init(nodes: [String: Node] = [:], script: [Event] = []) {
        self.nodes = nodes
        self.script = script
    }

    deinit {
        for buffer in buffers { buffer.memory.deallocate() }
    }

    /// Buffers dequeued and not yet queued again (counted without allocating, like the code under test).
    var userOwned: Int { buffers.reduce(0) { $0 + ($1.state == .user ? 1 : 0) } }

    var ops: CameraOps {
        var table = cv4l2_ops()
        table.context = Unmanaged.passUnretained(self).toOpaque()
        table.open = { context, path, flags in
            FakeV4L2Device.from(context).open(String(cString: path!), flags: flags)
        }
        table.close = { context, fd in FakeV4L2Device.from(context).close(fd) }
        table.ioctl = { context, fd, request, argument in
            FakeV4L2Device.from(context).ioctl(fd, request: request, argument: argument!)
        }
        table.raw_ioctl = { context, fd, request, argument in
            let fake = FakeV4L2Device.from(context)
            fake.rawCall = true
            defer { fake.rawCall = false }
            return fake.ioctl(fd, request: request, argument: argument!)
        }
        table.mmap = { context, length, _, _, fd, offset in
            FakeV4L2Device.from(context).mmap(length: length, fd: fd, offset: offset)
        }
        table.munmap = { context, address, length in
            FakeV4L2Device.from(context).munmap(address!, length: length)
        }
        table.poll = { context, fds, _, timeout in
            FakeV4L2Device.from(context).poll(fds!, timeout: timeout)
        }
        return CameraOps(table)
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> FakeV4L2Device {
        Unmanaged<FakeV4L2Device>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The log entries naming these operations, in order (e.g. "STREAMOFF", "munmap 0", "close").
    func events(_ prefixes: String...) -> [String] {
        log.filter { entry in prefixes.contains { entry.hasPrefix($0) } }
    }

    // MARK: - Calls

    private func fail(_ code: Int32) -> Int32 {
        errno = code
        return -1
    }

    private func open(_ path: String, flags: Int32) -> Int32 {
        log.append("open \(path)")
        if let code = openErrors[path] { return fail(code) }
        guard nodes[path] != nil else { return fail(ENOENT) }
        nextFd += 1
        openFds[nextFd] = path
        return nextFd
    }

    private func close(_ fd: Int32) -> Int32 {
        log.append("close")
        guard openFds.removeValue(forKey: fd) != nil else { return fail(EBADF) }
        return 0
    }

    private func mmap(length: Int, fd: Int32, offset: Int64) -> UnsafeMutableRawPointer? {
        guard let index = buffers.firstIndex(where: { Int64($0.offset) == offset }) else {
            errno = EINVAL
            return UnsafeMutableRawPointer(bitPattern: -1)
        }
        if let code = mmapError, index == buffers.count - 1 {
            errno = code
            return UnsafeMutableRawPointer(bitPattern: -1)
        }
        log.append("mmap \(index)")
        buffers[index].mapped = true
        return buffers[index].memory
    }

    private func munmap(_ address: UnsafeMutableRawPointer, length: Int) -> Int32 {
        guard let index = buffers.firstIndex(where: { $0.memory == address && $0.mapped }) else { return fail(EINVAL) }
        log.append("munmap \(index)")
        buffers[index].mapped = false
        return 0
    }

    private func poll(_ fds: UnsafeMutablePointer<pollfd>, timeout: Int32) -> Int32 {
        fds.pointee.revents = 0
        longestPollTimeout = max(longestPollTimeout, timeout)
        if disconnected {
            fds.pointee.revents = Int16(POLLERR | POLLHUP)
            return 1
        }
        if script.isEmpty, liveFrame != nil {
            fds.pointee.revents = Int16(POLLIN)
            return 1
        }
        guard let event = script.first else {
            usleep(UInt32(min(max(timeout, 0), 200)) * 1000)  // nothing scripted: wait like a stalled camera
            return 0
        }
        switch event {
        case .pollTimeout:
            script.removeFirst()
            usleep(UInt32(min(max(timeout, 0), 5)) * 1000)
            return 0
        case .pollInterrupted:
            script.removeFirst()
            return fail(EINTR)
        case .disconnect:
            script.removeFirst()
            disconnected = true
            fds.pointee.revents = Int16(POLLERR | POLLHUP)
            return 1
        default:
            fds.pointee.revents = Int16(POLLIN)
            return 1
        }
    }

    private func ioctl(_ fd: Int32, request: UInt, argument: UnsafeMutableRawPointer) -> Int32 {
        guard let path = openFds[fd], let node = nodes[path] else { return fail(EBADF) }
        if var errors = ioctlErrors[request], !errors.isEmpty {
            let code = errors.removeFirst()
            ioctlErrors[request] = errors
            log.append("\(name(request)) -> \(code)")
            return fail(code)
        }
        if disconnected {
            if request == CV4L2_VIDIOC_STREAMOFF { log.append("STREAMOFF -> ENODEV") }
            return fail(ENODEV)
        }
        switch request {
        case CV4L2_VIDIOC_QUERYCAP:
            let cap = argument.assumingMemoryBound(to: v4l2_capability.self)
            cap.pointee = v4l2_capability()
            write(node.card, into: &cap.pointee.card)
            write(node.driver, into: &cap.pointee.driver)
            write(node.bus, into: &cap.pointee.bus_info)
            cap.pointee.capabilities = node.capabilities
            cap.pointee.device_caps = node.deviceCaps
            return 0
        case CV4L2_VIDIOC_ENUM_FMT:
            let description = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
            let index = Int(description.pointee.index)
            guard index < node.formats.count else { return fail(EINVAL) }
            let format = node.formats[index]
            description.pointee.pixelformat = format.fourcc
            description.pointee.flags =
                (format.emulated ? UInt32(V4L2_FMT_FLAG_EMULATED) : 0)
                | (format.compressed ? UInt32(V4L2_FMT_FLAG_COMPRESSED) : 0)
            write(format.description, into: &description.pointee.description)
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMESIZES:
            let size = argument.assumingMemoryBound(to: v4l2_frmsizeenum.self)
            guard let format = enumerated(node, size.pointee.pixel_format) else { return fail(EINVAL) }
            let index = Int(size.pointee.index)
            if let step = format.stepwise {
                guard index == 0 else { return fail(EINVAL) }
                size.pointee.type = V4L2_FRMSIZE_TYPE_STEPWISE.rawValue
                size.pointee.stepwise = v4l2_frmsize_stepwise(
                    min_width: UInt32(step.minW), max_width: UInt32(step.maxW), step_width: UInt32(step.stepW),
                    min_height: UInt32(step.minH), max_height: UInt32(step.maxH), step_height: UInt32(step.stepH))
                return 0
            }
            guard index < format.sizes.count else { return fail(EINVAL) }
            size.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
            size.pointee.discrete = v4l2_frmsize_discrete(
                width: UInt32(format.sizes[index].width),
                height: UInt32(format.sizes[index].height))
            return 0
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS:
            let interval = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let format = enumerated(node, interval.pointee.pixel_format),
                Int(interval.pointee.index) < format.rates.count
            else { return fail(EINVAL) }
            interval.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
            interval.pointee.discrete = v4l2_fract(
                numerator: 1,
                denominator: UInt32(format.rates[Int(interval.pointee.index)]))
            return 0
        case CV4L2_VIDIOC_S_FMT:
            log.append("S_FMT")
            if node.refusesSetFormat { return fail(EINVAL) }
            return setFormat(node, argument.assumingMemoryBound(to: v4l2_format.self))
        case CV4L2_VIDIOC_G_FMT:
            log.append("G_FMT")
            let format = argument.assumingMemoryBound(to: v4l2_format.self)
            if current == nil {
                let first = node.formats[0]
                format.pointee.fmt.pix.pixelformat = first.fourcc
                format.pointee.fmt.pix.width = UInt32(first.sizes.first?.width ?? 640)
                format.pointee.fmt.pix.height = UInt32(first.sizes.first?.height ?? 480)
                return setFormat(node, format)
            }
            return setFormat(node, format)
        case CV4L2_VIDIOC_G_PARM:
            let parm = argument.assumingMemoryBound(to: v4l2_streamparm.self)
            parm.pointee.parm.capture.capability = node.timePerFrame ? UInt32(V4L2_CAP_TIMEPERFRAME) : 0
            let period = lastTimePerFrame ?? (1, UInt32(current?.format.rates.first ?? 30))
            parm.pointee.parm.capture.timeperframe = v4l2_fract(
                numerator: period.numerator,
                denominator: period.denominator)
            return 0
        case CV4L2_VIDIOC_S_PARM:
            guard node.timePerFrame, let current else { return fail(EINVAL) }
            let parm = argument.assumingMemoryBound(to: v4l2_streamparm.self)
            let wanted = parm.pointee.parm.capture.timeperframe
            // Like a driver: pick the supported rate closest to the one asked for.
            let asked = Double(wanted.denominator) / Double(max(wanted.numerator, 1))
            let rate = current.format.rates.min { abs(Double($0) - asked) < abs(Double($1) - asked) } ?? 30
            lastTimePerFrame = (1, UInt32(rate))
            parm.pointee.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(rate))
            return 0
        case CV4L2_VIDIOC_REQBUFS:
            log.append("REQBUFS")
            return requestBuffers(argument.assumingMemoryBound(to: v4l2_requestbuffers.self))
        case CV4L2_VIDIOC_QUERYBUF:
            let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
            let index = Int(buffer.pointee.index)
            guard index < buffers.count else { return fail(EINVAL) }
            buffer.pointee.length = UInt32(buffers[index].length)
            cv4l2_set_buffer_offset(buffer, buffers[index].offset)
            buffer.pointee.flags = buffers[index].state == .queued ? UInt32(V4L2_BUF_FLAG_QUEUED) : 0
            return 0
        case CV4L2_VIDIOC_QBUF:
            let index = Int(argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index)
            guard index < buffers.count, buffers[index].state != .queued else { return fail(EINVAL) }
            if buffers[index].state == .user { requeued += 1 }
            buffers[index].state = .queued
            return 0
        case CV4L2_VIDIOC_DQBUF:
            return dequeue(argument.assumingMemoryBound(to: v4l2_buffer.self))
        case CV4L2_VIDIOC_STREAMON:
            log.append("STREAMON")
            streaming = true
            streamOnTime = monotonic()
            return 0
        case CV4L2_VIDIOC_STREAMOFF:
            log.append("STREAMOFF")
            userOwnedAtStreamOff = userOwned
            streaming = false
            for index in buffers.indices { buffers[index].state = .idle }
            return 0
        case CV4L2_VIDIOC_QUERY_EXT_CTRL:
            let query = argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self)
            guard let control = controls[query.pointee.id] else { return fail(EINVAL) }
            query.pointee.minimum = Int64(control.minimum)
            query.pointee.maximum = Int64(control.maximum)
            query.pointee.step = UInt64(control.step)
            query.pointee.default_value = Int64(control.defaultValue ?? control.value)
            query.pointee.flags = control.flags
            query.pointee.type = control.type
            withUnsafeMutableBytes(of: &query.pointee.name) { bytes in
                for (index, byte) in control.name.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
            }
            return 0
        case CV4L2_VIDIOC_QUERYMENU:
            // struct v4l2_querymenu is packed: id at 0, index at 4, the name (or an integer menu's value) at 8.
            let id = argument.load(as: UInt32.self)
            let index = argument.load(fromByteOffset: 4, as: UInt32.self)
            guard let control = controls[id], let name = control.menu[Int(index)] else { return fail(EINVAL) }
            let bytes = Array(name.utf8.prefix(31)) + [0]
            argument.advanced(by: 8).copyMemory(from: bytes, byteCount: bytes.count)
            return 0
        case CV4L2_VIDIOC_G_CTRL:
            let request = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let control = controls[request.pointee.id], control.rect == nil else { return fail(EINVAL) }
            request.pointee.value = Int32(control.value)
            return 0
        case CV4L2_VIDIOC_S_CTRL:
            let request = argument.assumingMemoryBound(to: v4l2_control.self)
            guard var control = controls[request.pointee.id], control.rect == nil else { return fail(EINVAL) }
            if control.flags & (CV4L2_CTRL_FLAG_READ_ONLY | CV4L2_CTRL_FLAG_GRABBED) != 0 { return fail(EBUSY) }
            // Like a driver: clamped into the range, onto the step.
            let value = min(control.maximum, max(control.minimum, Int(request.pointee.value)))
            control.value = control.minimum + (value - control.minimum) / control.step * control.step
            controls[request.pointee.id] = control
            request.pointee.value = Int32(control.value)
            controlWrites.append((request.pointee.id, control.value))
            log.append("S_CTRL \(request.pointee.id)=\(control.value)")
            return 0
        case CV4L2_VIDIOC_G_EXT_CTRLS, CV4L2_VIDIOC_S_EXT_CTRLS:
            let list = argument.assumingMemoryBound(to: v4l2_ext_controls.self)
            guard list.pointee.count == 1, let entry = list.pointee.controls,
                var control = controls[entry.pointee.id], control.rect != nil,
                let rect = cv4l2_ext_control_rect(entry)
            else { return fail(EINVAL) }
            if request == CV4L2_VIDIOC_G_EXT_CTRLS {
                rect.pointee = control.rect!
                return 0
            }
            control.rect = rect.pointee
            controls[entry.pointee.id] = control
            controlWrites.append((entry.pointee.id, Int(rect.pointee.left)))
            log.append("S_EXT_CTRLS \(entry.pointee.id)")
            return 0
        default:
            return fail(ENOTTY)
        }
    }

    /// The value of control `id` (another program's view of it), or nil when the device has none.
    func control(_ id: UInt32) -> Int? { controls[id]?.value }

    /// The value of control `id` as the live frame being made shows it: `controlLatency` frames old.
    func appliedControl(_ id: UInt32) -> Int? { (controlHistory.first ?? controls)[id]?.value }

    /// The region of interest as the live frame being made shows it.
    func appliedRect(_ id: UInt32) -> v4l2_rect? { (controlHistory.first ?? controls)[id]?.rect }

    private func setFormat(_ node: Node, _ format: UnsafeMutablePointer<v4l2_format>) -> Int32 {
        if streaming || buffers.contains(where: { $0.mapped }) { return fail(EBUSY) }
        let pix = format.pointee.fmt.pix
        lastRequestedSize = (Int(pix.width), Int(pix.height))
        lastRequestedFourcc = pix.pixelformat
        // Like a driver: an unknown format becomes the first one, a size becomes the nearest offered.
        let chosen =
            node.formats.first { $0.fourcc == pix.pixelformat && $0.fourcc != node.refusedFourcc }
            ?? node.formats[0]
        var size = (width: Int(pix.width), height: Int(pix.height))
        if !chosen.sizes.isEmpty {
            size = chosen.sizes.min {
                abs($0.width - size.width) + abs($0.height - size.height)
                    < abs($1.width - size.width) + abs($1.height - size.height)
            }!
        }
        let layout = FakeV4L2Device.layout(chosen.fourcc)
        let stride = chosen.compressed ? 0 : size.width * layout.bytesPerPixel + node.rowPadding
        // A compressed frame's buffer as uvcvideo sizes it, at least 64 KiB (a small test picture's JPEG header alone
        // is longer than its pixels).
        let imageSize =
            chosen.compressed
            ? max(size.width * size.height, 1 << 16)
            : stride * size.height + layout.chromaBytes(stride, size.height)
        current = (node, chosen, size.width, size.height, stride, imageSize)
        format.pointee.fmt.pix.pixelformat = chosen.fourcc
        format.pointee.fmt.pix.width = UInt32(size.width)
        format.pointee.fmt.pix.height = UInt32(size.height)
        format.pointee.fmt.pix.bytesperline = UInt32(stride)
        format.pointee.fmt.pix.sizeimage = UInt32(imageSize)
        return 0
    }

    private func requestBuffers(_ request: UnsafeMutablePointer<v4l2_requestbuffers>) -> Int32 {
        guard let current else { return fail(EINVAL) }
        if streaming { return fail(EBUSY) }
        for buffer in buffers { buffer.memory.deallocate() }
        let count = Int(min(request.pointee.count, 32))
        buffers = (0..<count).map { index in
            Buffer(
                memory: .allocate(byteCount: current.size, alignment: 16), length: current.size,
                offset: UInt32(index) * 0x10000)
        }
        request.pointee.count = UInt32(count)
        return 0
    }

    private func dequeue(_ buffer: UnsafeMutablePointer<v4l2_buffer>) -> Int32 {
        guard streaming else { return fail(EINVAL) }
        if script.isEmpty, let liveFrame {
            controlHistory.append(controls)
            if controlHistory.count > controlLatency + 1 { controlHistory.removeFirst() }
            script.append(.frame(liveFrame(self)))
        }
        guard let event = script.first else { return fail(EAGAIN) }
        guard let index = buffers.firstIndex(where: { $0.state == .queued }) else {
            log.append("DQBUF with nothing queued")
            return fail(EINVAL)
        }
        switch event {
        case .frame(let spec):
            script.removeFirst()
            let whole = current?.size ?? buffers[index].length
            let used = spec.bytesUsed ?? whole
            buffers[index].memory.initializeMemory(as: UInt8.self, repeating: spec.fill, count: min(used, whole))
            if let bytes = spec.bytes {
                bytes.withUnsafeBytes { source in
                    buffers[index].memory.copyMemory(from: source.baseAddress!, byteCount: min(source.count, whole))
                }
            }
            if spec.rowPattern, let current {
                let rowBytes = current.width * (current.format.fourcc == CV4L2_PIX_FMT_RGB24 ? 3 : 2)
                let bytes = buffers[index].memory.assumingMemoryBound(to: UInt8.self)
                for row in 0..<current.height {
                    for column in 0..<current.stride {
                        bytes[row * current.stride + column] = column < rowBytes ? UInt8(row % 200) : 0xEE
                    }
                }
            }
            buffers[index].state = .user
            dequeued += 1
            maxUserOwned = max(maxUserOwned, userOwned)
            buffer.pointee.index = UInt32(index)
            buffer.pointee.bytesused = UInt32(used)
            buffer.pointee.length = UInt32(buffers[index].length)
            buffer.pointee.flags =
                UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
                | (spec.errorFlag ? UInt32(V4L2_BUF_FLAG_ERROR) : 0)
            let when = streamOnTime + (spec.time ?? (monotonic() - streamOnTime))
            buffer.pointee.timestamp = timeval(tv_sec: Int(when), tv_usec: Int((when - when.rounded(.down)) * 1e6))
            buffer.pointee.sequence = spec.sequence ?? sequence
            sequence = buffer.pointee.sequence + 1
            return 0
        case .dqbufError(let code):
            script.removeFirst()
            return fail(code)
        case .dqbufErrorLosingBuffer:
            script.removeFirst()
            buffers[index].state = .user
            maxUserOwned = max(maxUserOwned, userOwned)
            return fail(EIO)
        default:
            return fail(EAGAIN)
        }
    }

    /// How a format lays out its first plane (bytes a pixel) and the chroma planes after it.
    static func layout(_ fourcc: UInt32) -> (bytesPerPixel: Int, chromaBytes: (_ stride: Int, _ height: Int) -> Int) {
        switch fourcc {
        case CV4L2_PIX_FMT_RGB24, CV4L2_PIX_FMT_BGR24: return (3, { _, _ in 0 })
        case CV4L2_PIX_FMT_XBGR32, CV4L2_PIX_FMT_XRGB32, CV4L2_PIX_FMT_RGBX32: return (4, { _, _ in 0 })
        case CV4L2_PIX_FMT_NV12: return (1, { stride, height in stride * ((height + 1) / 2) })
        case CV4L2_PIX_FMT_YUV420, CV4L2_PIX_FMT_YVU420:
            return (1, { stride, height in 2 * (stride / 2) * ((height + 1) / 2) })
        default: return (2, { _, _ in 0 })
        }
    }

    /// The format a size or interval enumeration names, logged in `enumerations`; nil for one the asker does not
    /// know (a converted format asked of the camera itself).
    private func enumerated(_ node: Node, _ pixelFormat: UInt32) -> Format? {
        guard let format = node.formats.first(where: { $0.fourcc == pixelFormat }) else { return nil }
        enumerations.append((rawCall ? "raw " : "converting ") + fourccText(pixelFormat))
        return rawCall && format.emulated ? nil : format
    }

    private func fourccText(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }, as: UTF8.self)
    }

    private func name(_ request: UInt) -> String {
        switch request {
        case CV4L2_VIDIOC_S_FMT: return "S_FMT"
        case CV4L2_VIDIOC_REQBUFS: return "REQBUFS"
        case CV4L2_VIDIOC_STREAMON: return "STREAMON"
        case CV4L2_VIDIOC_STREAMOFF: return "STREAMOFF"
        case CV4L2_VIDIOC_QBUF: return "QBUF"
        case CV4L2_VIDIOC_DQBUF: return "DQBUF"
        case CV4L2_VIDIOC_QUERYCAP: return "QUERYCAP"
        default: return "ioctl \(request)"
        }
    }

    private func write<T>(_ text: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            for (index, byte) in text.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
    }

    private func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

// MARK: - Ready-made cameras

extension FakeV4L2Device.Format {
    static let yuyv = FakeV4L2Device.Format(
        fourcc: CV4L2_PIX_FMT_YUYV, description: "YUYV 4:2:2",
        sizes: [(320, 240), (640, 480), (1280, 720)])
    static let mjpeg = FakeV4L2Device.Format(
        fourcc: CV4L2_PIX_FMT_MJPEG, description: "Motion-JPEG", compressed: true,
        sizes: [(640, 480), (1280, 720), (1920, 1080)])
    /// A packed 4:2:2 format facecap does not read itself: libv4l2 converts it to RGB24.
    static let uyvy = FakeV4L2Device.Format(
        fourcc: CV4L2_PIX_FMT_UYVY, description: "UYVY 4:2:2",
        sizes: [(640, 480), (1280, 720)])
    /// What libv4l2 adds to the list for a camera it can convert from.
    static let emulatedRGB = FakeV4L2Device.Format(
        fourcc: CV4L2_PIX_FMT_RGB24, description: "RGB3", emulated: true,
        sizes: [(640, 480), (1280, 720), (1920, 1080)])
}

extension FakeV4L2Device.Node {
    static let webcam = FakeV4L2Device.Node(formats: [FakeV4L2Device.Format.yuyv, FakeV4L2Device.Format.mjpeg])
    /// The metadata node a UVC camera adds: VIDEO_CAPTURE only in `capabilities`.
    static let metadata = FakeV4L2Device.Node(
        capabilities: UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING)
            | UInt32(V4L2_CAP_DEVICE_CAPS),
        deviceCaps: UInt32(V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING), formats: [])
}
