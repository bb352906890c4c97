// swift-format-ignore-file
// Generated from MessageID+Manual.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Manual.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// the {driver} camera ({nodes}) gives raw sensor data only: a MIPI camera, which needs libcamera ('facecap
    /// devices' says how to set it up)
    public static func cameraErrorRawBayerOnly(driver: String, nodes: String) -> String {
        Self.text(.cameraErrorRawBayerOnly, ["driver": driver, "nodes": nodes])
    }

    /// {nodes} ({driver}, {card}): raw sensor data only. This MIPI camera needs an image processor (libcamera's);
    /// facecap reads finished pictures only.
    public static func mipiWhat(nodes: String, driver: String, card: String) -> String {
        Self.text(.mipiWhat, ["nodes": nodes, "driver": driver, "card": card])
    }

    /// the {driver} camera ({nodes}) gives raw sensor data only: a MIPI camera, which needs libcamera
    public static func devicesRawBayerOnly(driver: String, nodes: String) -> String {
        Self.text(.devicesRawBayerOnly, ["driver": driver, "nodes": nodes])
    }

    /// cannot use the face model {file}: {problem}. {advice}
    public static func modelCannotUse(file: String, problem: String, advice: String) -> String {
        Self.text(.modelCannotUse, ["file": file, "problem": problem, "advice": advice])
    }

    /// folder {path}
    public static func modelFolder(path: String) -> String { Self.text(.modelFolder, ["path": path]) }

    /// cannot read it ({reason})
    public static func modelUnreadable(reason: String) -> String { Self.text(.modelUnreadable, ["reason": reason]) }

    /// larger than {size}, so not a face model
    public static func modelTooLarge(size: String) -> String { Self.text(.modelTooLarge, ["size": size]) }

    /// not found (looked in {folders})
    public static func modelNotFound(folders: String) -> String { Self.text(.modelNotFound, ["folders": folders]) }

    /// truncated or corrupted ({detail})
    public static func modelCorrupted(detail: String) -> String { Self.text(.modelCorrupted, ["detail": detail]) }

    /// not the BlazeFace short-range detector (input {inputs}, outputs {outputs})
    public static func modelWrongDetector(inputs: String, outputs: String) -> String {
        Self.text(.modelWrongDetector, ["inputs": inputs, "outputs": outputs])
    }

    /// not the FaceMesh landmark model (input {inputs}, outputs {outputs})
    public static func modelWrongLandmarks(inputs: String, outputs: String) -> String {
        Self.text(.modelWrongLandmarks, ["inputs": inputs, "outputs": outputs])
    }

    /// not the hand landmark model (input {inputs}, outputs {outputs})
    public static func modelWrongHand(inputs: String, outputs: String) -> String {
        Self.text(.modelWrongHand, ["inputs": inputs, "outputs": outputs])
    }

    /// not the palm detector (input {inputs}, outputs {outputs})
    public static func modelWrongPalm(inputs: String, outputs: String) -> String {
        Self.text(.modelWrongPalm, ["inputs": inputs, "outputs": outputs])
    }

    /// not the iris landmark model (input {inputs}, outputs {outputs})
    public static func modelWrongIris(inputs: String, outputs: String) -> String {
        Self.text(.modelWrongIris, ["inputs": inputs, "outputs": outputs])
    }

    /// "result" is "{value}"
    public static func replyBadResult(value: String) -> String { Self.text(.replyBadResult, ["value": value]) }
}
