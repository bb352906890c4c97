internal import CV4L2
import FaceCapCore

#if canImport(Glibc)
import Glibc
#endif

/// One control facecap may steer (or reads to decide how to steer), as `facecap devices` lists it: what the driver
/// calls it, its range or menu, its default and its value now.
public struct CameraDeviceControl: Equatable, Sendable {
    public enum Kind: String, Sendable { case integer, boolean, menu, integerMenu, bitmask }

    public var id: UInt32
    /// The driver's name for it, e.g. "Brightness", "Auto Exposure".
    public var name: String
    public var kind: Kind
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var defaultValue: Int
    /// Nil when it cannot be read now.
    public var value: Int?
    /// A menu's items (VIDIOC_QUERYMENU), in index order; an integer menu's are its numbers. Empty otherwise.
    public var menu: [(index: Int, name: String)]

    public static func == (a: CameraDeviceControl, b: CameraDeviceControl) -> Bool {
        a.id == b.id && a.name == b.name && a.kind == b.kind && a.minimum == b.minimum && a.maximum == b.maximum
            && a.step == b.step && a.defaultValue == b.defaultValue && a.value == b.value
            && a.menu.map(\.index) == b.menu.map(\.index) && a.menu.map(\.name) == b.menu.map(\.name)
    }

    /// The controls `CameraExposure` reads or turns, in the order it considers them; the region of interest's
    /// rectangle (a compound control) is not listed.
    public static let steerable: [UInt32] = [
        CV4L2_CID_EXPOSURE_AUTO, CV4L2_CID_EXPOSURE_AUTO_PRIORITY, CV4L2_CID_UVC_ROI_AUTO, CV4L2_CID_AUTO_EXPOSURE_BIAS,
        CV4L2_CID_BACKLIGHT_COMPENSATION, CV4L2_CID_EXPOSURE_ABSOLUTE, CV4L2_CID_GAIN, CV4L2_CID_BRIGHTNESS,
    ]

    /// The name of `number` in this control's menu (or the number itself).
    public func name(of number: Int) -> String {
        menu.first { $0.index == number }?.name ?? String(number)
    }

    /// The steerable controls of the node at `path` (opened for this alone, and closed again); none when it cannot
    /// be opened.
    public static func read(path: String, ops: CameraOps = .system) -> [CameraDeviceControl] {
        var table = ops.table
        let fd = table.open(table.context, path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { _ = table.close(table.context, fd) }
        return steerable.compactMap { read(id: $0, table: &table, fd: fd) }
    }

    private static func read(id: UInt32, table: inout cv4l2_ops, fd: Int32) -> CameraDeviceControl? {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        guard cv4l2_xioctl(&table, fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &query) == 0, query.id == id,
            query.flags & CV4L2_CTRL_FLAG_DISABLED == 0
        else { return nil }
        let kind: Kind
        switch query.type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: kind = .integer
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: kind = .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: kind = .menu
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: kind = .integerMenu
        case V4L2_CTRL_TYPE_BITMASK.rawValue: kind = .bitmask
        default: return nil
        }
        var control = CameraDeviceControl(
            id: id, name: CameraSupport.cString(query.name), kind: kind, minimum: Int(clamping: query.minimum),
            maximum: Int(clamping: query.maximum), step: Int(clamping: query.step),
            defaultValue: Int(clamping: query.default_value), value: nil, menu: [])
        var value = v4l2_control(id: id, value: 0)
        if cv4l2_xioctl(&table, fd, CV4L2_VIDIOC_G_CTRL, &value) == 0 { control.value = Int(value.value) }
        if kind == .menu || kind == .integerMenu, control.minimum >= 0, control.maximum - control.minimum < 64 {
            for index in control.minimum...control.maximum {
                var name = [CChar](repeating: 0, count: 33)
                var number: Int64 = 0
                // Menus may skip items (EINVAL for those).
                guard cv4l2_query_menu(&table, fd, id, UInt32(index), &name, &number) == 0 else { continue }
                let text =
                    kind == .menu
                    ? String(
                        decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                        as: UTF8.self) : String(number)
                control.menu.append((index, text))
            }
        }
        return control
    }
}
