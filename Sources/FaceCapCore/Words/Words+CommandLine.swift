// swift-format-ignore-file
// Generated from MessageID+CommandLine.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+CommandLine.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// Run '{command}' for more.
    public static func usageSeeHelp(command: String) -> String { Self.text(.usageSeeHelp, ["command": command]) }

    /// unknown command '{command}' (commands: {commands})
    public static func usageUnknownCommand(command: String, commands: String) -> String {
        Self.text(.usageUnknownCommand, ["command": command, "commands": commands])
    }

    /// unknown option '{option}'
    public static func usageUnknownOption(option: String) -> String {
        Self.text(.usageUnknownOption, ["option": option])
    }

    /// {option} needs a value ({value})
    public static func usageNeedsValue(option: String, value: String) -> String {
        Self.text(.usageNeedsValue, ["option": option, "value": value])
    }

    /// {option} takes no value
    public static func usageTakesNoValue(option: String) -> String { Self.text(.usageTakesNoValue, ["option": option]) }

    /// {option} is given more than once; give each option once
    public static func usageGivenTwice(option: String) -> String { Self.text(.usageGivenTwice, ["option": option]) }

    /// {option} takes a whole number from {low} to {high}, not '{text}'
    public static func usageWholeNumber(option: String, low: String, high: String, text: String) -> String {
        Self.text(.usageWholeNumber, ["option": option, "low": low, "high": high, "text": text])
    }

    /// {option} takes a number from {low} to {high}, not '{text}'
    public static func usageNumber(option: String, low: String, high: String, text: String) -> String {
        Self.text(.usageNumber, ["option": option, "low": low, "high": high, "text": text])
    }

    /// {option} takes WIDTHxHEIGHT with each side from 16 to 8192, e.g. 640x480, not '{text}'
    public static func usageSize(option: String, text: String) -> String {
        Self.text(.usageSize, ["option": option, "text": text])
    }

    /// {option} takes a format of one to four characters such as YUYV, NV12 or MJPG, not '{text}'
    public static func usageFormat(option: String, text: String) -> String {
        Self.text(.usageFormat, ["option": option, "text": text])
    }

    /// unexpected argument '{argument}' (a clip is given with --input FILE.y4m)
    public static func usageUnexpectedArgument(argument: String) -> String {
        Self.text(.usageUnexpectedArgument, ["argument": argument])
    }

    /// --color takes auto, truecolor, 256, 16 or none, not '{text}'
    public static func usageColor(text: String) -> String { Self.text(.usageColor, ["text": text]) }

    /// --graphics takes auto, kitty, sixel or cells, not '{text}'
    public static func usageGraphics(text: String) -> String { Self.text(.usageGraphics, ["text": text]) }

    /// --lang {code}: no messages in that language (available: {languages})
    public static func usageUnknownLanguage(code: String, languages: String) -> String {
        Self.text(.usageUnknownLanguage, ["code": code, "languages": languages])
    }

    /// --server needs an http(s) URL, e.g. https://example.org/selfie, not '{url}'
    public static func usageServerURL(url: String) -> String { Self.text(.usageServerURL, ["url": url]) }

    /// --server URL has no host: '{url}'
    public static func usageServerNoHost(url: String) -> String { Self.text(.usageServerNoHost, ["url": url]) }

    /// {options} asks the camera for a mode; a clip plays at its own size and frame rate, so it is ignored
    public static func usageClipIgnoresMode(count: Int, options: String) -> String {
        Self.text(.usageClipIgnoresMode, count: count, ["options": options])
    }

    /// FACECAP_TOKEN is never sent over plain http:// to another machine ({host}); use https:// or unset FACECAP_TOKEN
    public static func usageTokenInClear(host: String) -> String { Self.text(.usageTokenInClear, ["host": host]) }

    /// this terminal (TERM={term}) cannot show the full-screen wizard; use --plain, or set TERM (e.g.
    /// TERM=xterm-256color)
    public static func usageTerminalType(term: String) -> String { Self.text(.usageTerminalType, ["term": term]) }

    /// the terminal type '{term}' cannot draw the full-screen wizard; set TERM (e.g. TERM=xterm-256color) or use
    /// --plain
    public static func terminalCannotDraw(term: String) -> String { Self.text(.terminalCannotDraw, ["term": term]) }

    /// unknown option '{option}'; did you mean '{suggestion}'?
    public static func usageUnknownOptionDidYouMean(option: String, suggestion: String) -> String {
        Self.text(.usageUnknownOptionDidYouMean, ["option": option, "suggestion": suggestion])
    }

    /// unknown command '{command}'; did you mean '{suggestion}'? (commands: {commands})
    public static func usageUnknownCommandDidYouMean(command: String, suggestion: String, commands: String) -> String {
        Self.text(.usageUnknownCommandDidYouMean, ["command": command, "suggestion": suggestion, "commands": commands])
    }

    /// unexpected argument '{argument}'
    public static func usageUnexpectedOperand(argument: String) -> String {
        Self.text(.usageUnexpectedOperand, ["argument": argument])
    }

    /// {first} and {second}
    public static func listPair(first: String, second: String) -> String {
        Self.text(.listPair, ["first": first, "second": second])
    }

    /// {count} MB
    public static func unitMegabytes(count: String) -> String { Self.text(.unitMegabytes, ["count": count]) }

    /// {count} KB
    public static func unitKilobytes(count: String) -> String { Self.text(.unitKilobytes, ["count": count]) }

    /// {count} byte
    public static func unitBytes(count: Int) -> String { Self.text(.unitBytes, count: count) }

    /// facecap — {tagline}.
    public static func cliTitleLine(tagline: String) -> String { Self.text(.cliTitleLine, ["tagline": tagline]) }

    /// Keys: {keys}.
    public static func cliKeysLine(keys: String) -> String { Self.text(.cliKeysLine, ["keys": keys]) }

    /// Exit codes: {codes}.
    public static func cliExitCodesLine(codes: String) -> String { Self.text(.cliExitCodesLine, ["codes": codes]) }

    /// {path}: {width}x{height} at {fps} fps, stability window {seconds} s
    public static func analyzeClipHeader(path: String, width: String, height: String, fps: String, seconds: String) -> String {
        Self.text(.analyzeClipHeader, ["path": path, "width": width, "height": height, "fps": fps, "seconds": seconds])
    }

    /// {path}: frame {index} is cut short by the end of the file; analysed the {count} whole frame before it
    public static func analyzeClipCut(count: Int, path: String, index: String) -> String {
        Self.text(.analyzeClipCut, count: count, ["path": path, "index": index])
    }

    /// {path}: {count} frame, auto-captured
    public static func analyzeClipCaptured(count: Int, path: String) -> String {
        Self.text(.analyzeClipCaptured, count: count, ["path": path])
    }

    /// {path}: {count} frame, no auto capture
    public static func analyzeClipNotCaptured(count: Int, path: String) -> String {
        Self.text(.analyzeClipNotCaptured, count: count, ["path": path])
    }

    /// (median of {count} runs each, one thread)
    public static func benchMedianOf(count: String) -> String { Self.text(.benchMedianOf, ["count": count]) }

    /// {path}: not every frame made from it had a tracked face; the bench needs a photo of one face
    public static func benchNoFace(path: String) -> String { Self.text(.benchNoFace, ["path": path]) }

    /// {count} face
    public static func analyzeFaces(count: Int) -> String { Self.text(.analyzeFaces, count: count) }

    /// {path} frame {index} (t={seconds} s)
    public static func analyzeFrameAt(path: String, index: String, seconds: String) -> String {
        Self.text(.analyzeFrameAt, ["path": path, "index": index, "seconds": seconds])
    }

    /// {where} ({width}x{height}): {faces}
    public static func analyzePhotoLine(where whereText: String, width: String, height: String, faces: String) -> String {
        Self.text(.analyzePhotoLine, ["where": whereText, "width": width, "height": height, "faces": faces])
    }

    /// face {index}: score {score}  box x={x} y={y} w={w} h={h}
    public static func analyzeFaceLine(index: String, score: String, x: String, y: String, w: String, h: String) -> String {
        Self.text(.analyzeFaceLine, ["index": index, "score": score, "x": x, "y": y, "w": w, "h": h])
    }

    /// keypoints: {points}
    public static func analyzeKeypoints(points: String) -> String { Self.text(.analyzeKeypoints, ["points": points]) }

    /// landmarks: {count} (face presence {presence})
    public static func analyzeLandmarks(count: String, presence: String) -> String {
        Self.text(.analyzeLandmarks, ["count": count, "presence": presence])
    }

    /// record takes one output file, not {count}
    public static func recordOneFile(count: String) -> String { Self.text(.recordOneFile, ["count": count]) }

    /// recording {seconds} s from {camera} to {path}; Ctrl-C stops early
    public static func recordStarting(seconds: String, camera: String, path: String) -> String {
        Self.text(.recordStarting, ["seconds": seconds, "camera": camera, "path": path])
    }

    /// recording {seconds} s from {camera} (asked for {width}x{height}; the camera chose this size) to {path}; Ctrl-C
    /// stops early
    public static func recordStartingAdjusted(seconds: String, camera: String, width: String, height: String, path: String) -> String {
        Self.text(.recordStartingAdjusted, ["seconds": seconds, "camera": camera, "width": width, "height": height, "path": path])
    }

    /// no frames recorded; {path} not written
    public static func recordNoFrames(path: String) -> String { Self.text(.recordNoFrames, ["path": path]) }

    /// wrote {count} frame ({seconds} s at {fps} fps, {mode}) to {path}
    public static func recordWrote(count: Int, seconds: String, fps: String, mode: String, path: String) -> String {
        Self.text(.recordWrote, count: count, ["seconds": seconds, "fps": fps, "mode": mode, "path": path])
    }

    /// dropped {count} damaged frame ({flagged} flagged, {short} short), the driver skipped {skipped}
    public static func recordDropped(count: Int, flagged: String, short: String, skipped: String) -> String {
        Self.text(.recordDropped, count: count, ["flagged": flagged, "short": short, "skipped": skipped])
    }

    /// {count} of them a JPEG that would not decode
    public static func recordUndecodable(count: Int) -> String { Self.text(.recordUndecodable, count: count) }

    /// 'facecap generate' takes one of: {outputs}
    public static func generateTakesOne(outputs: String) -> String {
        Self.text(.generateTakesOne, ["outputs": outputs])
    }

    /// 'facecap generate' takes one of: {outputs}, not '{what}'
    public static func generateTakesOneNot(outputs: String, what: String) -> String {
        Self.text(.generateTakesOneNot, ["outputs": outputs, "what": what])
    }

    /// {path}: {name} (driver {driver}, bus {bus})
    public static func devicesDriverBus(path: String, name: String, driver: String, bus: String) -> String {
        Self.text(.devicesDriverBus, ["path": path, "name": name, "driver": driver, "bus": bus])
    }

    /// {format} ({description}, compressed)
    public static func devicesCompressed(format: String, description: String) -> String {
        Self.text(.devicesCompressed, ["format": format, "description": description])
    }

    /// also converted by libv4l2: {formats}
    public static func devicesConverted(formats: String) -> String {
        Self.text(.devicesConverted, ["formats": formats])
    }

    /// {low} to {high}, {steps}
    public static func devicesRange(low: String, high: String, steps: String) -> String {
        Self.text(.devicesRange, ["low": low, "high": high, "steps": steps])
    }

    /// steps {width}x{height}
    public static func devicesSteps(width: String, height: String) -> String {
        Self.text(.devicesSteps, ["width": width, "height": height])
    }

    /// choice {rank}: {reasons}
    public static func devicesRankLine(rank: String, reasons: String) -> String {
        Self.text(.devicesRankLine, ["rank": rank, "reasons": reasons])
    }

    /// {name}: {value} (default {default}, {minimum} to {maximum})
    public static func devicesControlRange(name: String, value: String, default defaultText: String, minimum: String, maximum: String) -> String {
        Self.text(.devicesControlRange, ["name": name, "value": value, "default": defaultText, "minimum": minimum, "maximum": maximum])
    }

    /// {name}: {value} (default {default}; one of {items})
    public static func devicesControlMenu(name: String, value: String, default defaultText: String, items: String) -> String {
        Self.text(.devicesControlMenu, ["name": name, "value": value, "default": defaultText, "items": items])
    }

    /// {size} at {fps} fps
    public static func devicesRankMode(size: String, fps: String) -> String {
        Self.text(.devicesRankMode, ["size": size, "fps": fps])
    }

    /// at best {size} at {fps} fps (less than 640x480 at 15 fps)
    public static func devicesRankSlowMode(size: String, fps: String) -> String {
        Self.text(.devicesRankSlowMode, ["size": size, "fps": fps])
    }

    /// infrared (its USB interface is named {name})
    public static func devicesRankInfraredInterface(name: String) -> String {
        Self.text(.devicesRankInfraredInterface, ["name": name])
    }
}
