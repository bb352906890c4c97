import FaceCapCore

/// How `facecap devices` shows capture devices: lines for people, and one JSON document for scripts.
///
/// JSON shape (stable; keys always in this order, `fpsRange` only when the driver gives a range, `mode` only
/// when a readable format lists a size with a rate; `hardwareDriver` and `interface` are null where sysfs has none):
/// ```
/// {"devices":[{"path":"/dev/video0","card":"…","driver":"uvcvideo","bus":"usb-…",
///   "formats":[{"fourcc":"YUYV","description":"YUYV 4:2:2","compressed":false,"emulated":false,
///     "sizes":[{"type":"discrete","width":640,"height":480,"fps":[30,15]},
///              {"type":"stepwise","minWidth":48,"minHeight":32,"maxWidth":1920,"maxHeight":1080,
///               "stepWidth":16,"stepHeight":8,"fps":[30],"fpsRange":{"min":1,"max":30}}]}],
///   "rank":1,"kind":"colour","virtual":false,"fastEnough":true,"mode":{"width":640,"height":480,"fps":30},
///   "reasons":["colour","640x480 at 30 fps"],"hardwareDriver":"uvcvideo","interface":"Integrated Camera",
///   "controls":[{"id":10094849,"name":"Auto Exposure","type":"menu","minimum":0,"maximum":3,"step":1,"default":3,
///     "value":3,"menu":[{"index":1,"name":"Manual Mode"},{"index":3,"name":"Aperture Priority Mode"}]},
///    {"id":9963776,"name":"Brightness","type":"integer","minimum":-64,"maximum":64,"step":1,"default":0,"value":0,
///     "menu":null}]}],
///  "problems":["cannot open /dev/video2: permission denied …"],
///  "mipi":null}
/// ```
/// `rank` is the order facecap tries the devices in when none is named (`CameraRank`): 1 first; `kind` is
/// colour, infrared, raw-bayer or unreadable; `reasons` are in the user's language. `mipi` is null unless the only
/// capture nodes give raw Bayer data (a MIPI camera, `CameraRank.rawBayerCamera`); then it is
/// `{"driver":"intel_ipu6_isys","card":"…","nodes":["/dev/video0",…],"needs":"libcamera","advice":["…",…]}`,
/// the advice being the camera screen's lines (commands start with "$ "). `controls` are those facecap may steer
/// (`CameraDeviceControl.steerable`) with the driver's names; `type` is integer, boolean, menu, integerMenu or
/// bitmask; `value` is null when it cannot be read; `menu` lists a menu's items (VIDIOC_QUERYMENU), else null.
public enum CameraDeviceText {
    /// A frame rate as people write it: 30 → "30", 7.5 → "7.5", 30000/1001 → "29.97".
    public static func rate(_ rate: Double) -> String {
        if rate == rate.rounded() { return String(Int(rate)) }
        return String((rate * 100).rounded() / 100)
    }

    /// Human-readable lines for `devices`, one block per device.
    public static func human(_ devices: [CameraDevice]) -> String {
        var lines: [String] = []
        let ranks = ranking(devices)
        for (device, (place, rank)) in zip(devices, ranks) {
            lines.append(
                Words.devicesDriverBus(
                    path: device.path,
                    name: device.card.isEmpty ? Words.text(.devicesUnnamed) : device.card,
                    driver: device.driver, bus: device.bus))
            lines.append(
                "  "
                    + Words.devicesRankLine(
                        rank: String(place),
                        reasons: rank.reasons.joined(separator: ", ")))
            let native = device.formats.filter { !$0.isEmulated }
            let converted = device.formats.filter(\.isEmulated)
            for format in native {
                lines.append(
                    "  "
                        + (format.isCompressed
                            ? Words.devicesCompressed(format: format.fourcc, description: format.description)
                            : "\(format.fourcc) (\(format.description))"))
                for size in format.sizes { lines.append("    " + describe(size)) }
                if format.sizes.isEmpty { lines.append("    " + Words.text(.devicesNoSizes)) }
            }
            if native.isEmpty { lines.append("  " + Words.text(.devicesNoFormats)) }
            if !converted.isEmpty {
                lines.append("  " + Words.devicesConverted(formats: Words.list(converted.map(\.fourcc))))
            }
            if !device.controls.isEmpty {
                lines.append("  " + Words.text(.devicesControls))
                for control in device.controls { lines.append("    " + describe(control)) }
            }
        }
        // A MIPI camera: what it is and what can be done, as its wizard screen says it, after the nodes.
        if let camera = CameraRank.rawBayerCamera(devices) { lines += [""] + camera.advice }
        return lines.joined(separator: "\n")
    }

    /// "Brightness: 128 (default 128, 0 to 255)" or "Auto Exposure: Aperture Priority Mode (default Aperture Priority
    /// Mode; one of Manual Mode, Aperture Priority Mode)": the driver's names, which stay as the driver gives them.
    public static func describe(_ control: CameraDeviceControl) -> String {
        let value = control.value.map(control.name(of:)) ?? "?"
        let defaultValue = control.name(of: control.defaultValue)
        if !control.menu.isEmpty {
            return Words.devicesControlMenu(
                name: control.name, value: value, default: defaultValue,
                items: control.menu.map(\.name).joined(separator: ", "))
        }
        return Words.devicesControlRange(
            name: control.name, value: value, default: defaultValue,
            minimum: String(control.minimum), maximum: String(control.maximum))
    }

    /// "640x480 @ 30, 15 fps" or "48x32 to 1920x1080, steps 16x8 @ 1–30 fps".
    public static func describe(_ size: CameraFrameSize) -> String {
        var rates: [String] = []
        if !size.frameRates.isEmpty { rates.append(size.frameRates.map(CameraDeviceText.rate).joined(separator: ", ")) }
        if let range = size.frameRateRange { rates.append("\(rate(range.lowerBound))–\(rate(range.upperBound))") }
        let rate = rates.isEmpty ? "" : " @ " + rates.joined(separator: ", ") + " fps"
        switch size.kind {
        case .discrete:
            return "\(size.width)x\(size.height)\(rate)"
        case .stepwise, .continuous:
            let steps =
                size.kind == .continuous
                ? Words.text(.devicesAnySize)
                : Words.devicesSteps(width: String(size.stepWidth), height: String(size.stepHeight))
            return Words.devicesRange(
                low: "\(size.minWidth)x\(size.minHeight)", high: "\(size.width)x\(size.height)",
                steps: steps) + rate
        }
    }

    /// Each device's place in the order facecap tries them (1 first) and its rank, in `devices`' order.
    static func ranking(_ devices: [CameraDevice]) -> [(Int, CameraRank)] {
        let order = CameraRank.ranked(devices).map(\.device.path)
        return devices.map { device in
            ((order.firstIndex(of: device.path) ?? order.count) + 1, CameraRank(of: device))
        }
    }

    /// The JSON document described above, on one line.
    public static func json(_ devices: [CameraDevice], problems: [String]) -> String {
        let items = zip(devices, ranking(devices)).map { device, placed in
            let (place, rank) = placed
            var fields: [(String, String)] = [
                ("path", string(device.path)), ("card", string(device.card)), ("driver", string(device.driver)),
                ("bus", string(device.bus)), ("formats", array(device.formats.map(json))),
                ("rank", String(place)), ("kind", string(rank.kind.name)), ("virtual", String(rank.isVirtual)),
                ("fastEnough", String(rank.isFastEnough)),
            ]
            if let mode = rank.mode {
                fields.append(
                    (
                        "mode",
                        object([
                            ("width", String(mode.width)), ("height", String(mode.height)),
                            ("fps", CameraDeviceText.rate(mode.framesPerSecond)),
                        ])
                    ))
            }
            fields.append(("reasons", array(rank.reasons.map(string))))
            // After the keys of earlier versions, which stay a prefix in their order.
            fields.append(("hardwareDriver", device.hardwareDriver.map(string) ?? "null"))
            fields.append(("interface", device.interfaceName.map(string) ?? "null"))
            fields.append(("controls", array(device.controls.map(json))))
            return object(fields)
        }
        let mipi = CameraRank.rawBayerCamera(devices).map { camera in
            object([
                ("driver", string(camera.driver)), ("card", string(camera.card)),
                ("nodes", array(camera.nodes.map(string))), ("needs", string("libcamera")),
                ("advice", array(camera.advice.map(string))),
            ])
        }
        return object([("devices", array(items)), ("problems", array(problems.map(string))), ("mipi", mipi ?? "null")])
    }

    private static func json(_ control: CameraDeviceControl) -> String {
        let menu =
            control.menu.isEmpty
            ? "null"
            : array(
                control.menu.map { item in
                    object([("index", String(item.index)), ("name", string(item.name))])
                })
        return object([
            ("id", String(control.id)), ("name", string(control.name)), ("type", string(control.kind.rawValue)),
            ("minimum", String(control.minimum)), ("maximum", String(control.maximum)), ("step", String(control.step)),
            ("default", String(control.defaultValue)), ("value", control.value.map { String($0) } ?? "null"),
            ("menu", menu),
        ])
    }

    private static func json(_ format: CameraFormat) -> String {
        object([
            ("fourcc", string(format.fourcc)), ("description", string(format.description)),
            ("compressed", String(format.isCompressed)), ("emulated", String(format.isEmulated)),
            ("sizes", array(format.sizes.map(json))),
        ])
    }

    private static func json(_ size: CameraFrameSize) -> String {
        var fields: [(String, String)] = [("type", string(size.kind.rawValue))]
        switch size.kind {
        case .discrete:
            fields += [("width", String(size.width)), ("height", String(size.height))]
        case .stepwise, .continuous:
            fields += [
                ("minWidth", String(size.minWidth)), ("minHeight", String(size.minHeight)),
                ("maxWidth", String(size.width)), ("maxHeight", String(size.height)),
                ("stepWidth", String(size.stepWidth)), ("stepHeight", String(size.stepHeight)),
            ]
        }
        fields.append(("fps", array(size.frameRates.map(CameraDeviceText.rate))))
        if let range = size.frameRateRange {
            fields.append(
                (
                    "fpsRange",
                    object([
                        ("min", CameraDeviceText.rate(range.lowerBound)),
                        ("max", CameraDeviceText.rate(range.upperBound)),
                    ])
                ))
        }
        return object(fields)
    }

    private static func object(_ fields: [(String, String)]) -> String { JSONText.object(fields) }
    private static func array(_ items: [String]) -> String { JSONText.array(items) }
    static func string(_ text: String) -> String { JSONText.string(text) }
}
