// swift-format-ignore-file
// Generated from MessageID+Camera.swift by TypedWordsTests (FACECAP_WRITE_WORDS=1): do not edit.

/// The typed constructors of the messages of MessageID+Camera.swift that have placeholders: an argument
/// for each, so a missing or misspelt one fails to compile.
extension Words {
    /// Device: {path}
    public static func cameraDevice(path: String) -> String { Self.text(.cameraDevice, ["path": path]) }

    /// Your groups: {groups}
    public static func cameraYourGroups(groups: String) -> String { Self.text(.cameraYourGroups, ["groups": groups]) }

    /// You were added to '{group}' after this login: log out and back in, or for this terminal only:
    public static func cameraAddedAfterLogin(group: String) -> String {
        Self.text(.cameraAddedAfterLogin, ["group": group])
    }

    /// Fix: add yourself to the '{group}' group, then log out and back in:
    public static func cameraFixGroup(group: String) -> String { Self.text(.cameraFixGroup, ["group": group]) }

    /// In use by {command} (pid {pid})
    public static func cameraInUseBy(command: String, pid: String) -> String {
        Self.text(.cameraInUseBy, ["command": command, "pid": pid])
    }

    /// {message}; without a camera, replay a clip: facecap --input FILE.y4m
    public static func cameraNoneReplayClip(message: String) -> String {
        Self.text(.cameraNoneReplayClip, ["message": message])
    }

    /// no camera found: no video-capture device in {directory} — connect a webcam (check `ls /dev/video*`) or pass one
    /// through to this VM or container
    public static func cameraErrorNoCamera(directory: String) -> String {
        Self.text(.cameraErrorNoCamera, ["directory": directory])
    }

    /// no camera at {path}: no such file — run 'facecap devices' to list cameras
    public static func cameraErrorNoSuchDevice(path: String) -> String {
        Self.text(.cameraErrorNoSuchDevice, ["path": path])
    }

    /// {path} is not a video capture device ({reason}) — run 'facecap devices' to list cameras
    public static func cameraErrorNotCapture(path: String, reason: String) -> String {
        Self.text(.cameraErrorNotCapture, ["path": path, "reason": reason])
    }

    /// cannot open {path}: permission denied ({access}) — fix: sudo usermod -aG {group} $USER, then log out and back in
    /// (or run 'newgrp {group}'); over SSH or in a container the device must be passed through; also check the camera's
    /// privacy switch or shutter
    public static func cameraErrorDenied(path: String, access: String, group: String) -> String {
        Self.text(.cameraErrorDenied, ["path": path, "access": access, "group": group])
    }

    /// cannot open {path}: permission denied ({access}) — you were added to group '{group}' after this login session
    /// started: log out and back in (or run 'newgrp {group}')
    public static func cameraErrorDeniedPending(path: String, access: String, group: String) -> String {
        Self.text(.cameraErrorDeniedPending, ["path": path, "access": access, "group": group])
    }

    /// {path} is busy: in use by {holders} — close it and try again
    public static func cameraErrorBusy(count: Int, path: String, holders: String) -> String {
        Self.text(.cameraErrorBusy, count: count, ["path": path, "holders": holders])
    }

    /// {path} is busy: another program is using the camera (none visible to this user; try 'sudo fuser {path}') — close
    /// it and try again
    public static func cameraErrorBusyNoneVisible(path: String) -> String {
        Self.text(.cameraErrorBusyNoneVisible, ["path": path])
    }

    /// {path} offers no picture format facecap can read (it offers {formats}; facecap reads YUYV, NV12, YU12, YV12, RGB
    /// and MJPEG, and what libv4l2 converts to RGB24) — try another camera
    public static func cameraErrorUnsupported(path: String, formats: String) -> String {
        Self.text(.cameraErrorUnsupported, ["path": path, "formats": formats])
    }

    /// {path} does not give {format} (it offers {formats}) — leave out --format, or name one of those
    public static func cameraErrorFormatNotOffered(path: String, format: String, formats: String) -> String {
        Self.text(.cameraErrorFormatNotOffered, ["path": path, "format": format, "formats": formats])
    }

    /// {format} via libv4l2
    public static func cameraConvertedFormat(format: String) -> String {
        Self.text(.cameraConvertedFormat, ["format": format])
    }

    /// camera disconnected: {path} stopped answering (unplugged?) — reconnect it and try again
    public static func cameraErrorDisconnected(path: String) -> String {
        Self.text(.cameraErrorDisconnected, ["path": path])
    }

    /// camera stalled: no frame from {path} for {seconds} s — check the privacy shutter or switch, then reconnect the
    /// camera and try again
    public static func cameraErrorStalled(path: String, seconds: String) -> String {
        Self.text(.cameraErrorStalled, ["path": path, "seconds": seconds])
    }

    /// {path} cannot stream at this size and frame rate: not enough USB bandwidth — try a smaller --size or --fps, or
    /// plug the camera (or other USB devices) into another port
    public static func cameraErrorNoBandwidth(path: String) -> String {
        Self.text(.cameraErrorNoBandwidth, ["path": path])
    }

    /// camera error: {path} failed to deliver a frame (I/O error {count} time in a row) — reconnect the camera and try
    /// again
    public static func cameraErrorIO(count: Int, path: String) -> String {
        Self.text(.cameraErrorIO, count: count, ["path": path])
    }

    /// camera error on {path}: {operation} failed: {reason} — reconnect the camera or try another one (see 'facecap
    /// devices')
    public static func cameraErrorSystem(path: String, operation: String, reason: String) -> String {
        Self.text(.cameraErrorSystem, ["path": path, "operation": operation, "reason": reason])
    }

    /// camera {path} was already closed — open it again
    public static func cameraErrorClosed(path: String) -> String { Self.text(.cameraErrorClosed, ["path": path]) }

    /// owner {owner}, group {group}, mode {mode}
    public static func accessOwner(owner: String, group: String, mode: String) -> String {
        Self.text(.accessOwner, ["owner": owner, "group": group, "mode": mode])
    }

    /// you are in: {groups}
    public static func accessYouAreIn(groups: String) -> String { Self.text(.accessYouAreIn, ["groups": groups]) }

    /// {path}: the clip ended after {count} frame; use --loop to replay it continuously
    public static func clipEnded(count: Int, path: String) -> String {
        Self.text(.clipEnded, count: count, ["path": path])
    }

    /// {path}: the clip ended after {count} frame (its last frame is incomplete); use --loop to replay it continuously
    public static func clipEndedCut(count: Int, path: String) -> String {
        Self.text(.clipEndedCut, count: count, ["path": path])
    }

    /// {path}: the clip cannot be read
    public static func clipUnreadable(path: String) -> String { Self.text(.clipUnreadable, ["path": path]) }

    /// {message} ({detail})
    public static func netDetail(message: String, detail: String) -> String {
        Self.text(.netDetail, ["message": message, "detail": detail])
    }

    /// the server's reply is larger than {size}
    public static func netReplyTooLarge(size: String) -> String { Self.text(.netReplyTooLarge, ["size": size]) }

    /// cannot find the server {host} (DNS lookup failed)
    public static func netDNS(host: String) -> String { Self.text(.netDNS, ["host": host]) }

    /// connection refused by {place}
    public static func netRefused(place: String) -> String { Self.text(.netRefused, ["place": place]) }

    /// no route to {place} (network unreachable)
    public static func netNoRoute(place: String) -> String { Self.text(.netNoRoute, ["place": place]) }

    /// cannot connect to {place}
    public static func netCannotConnect(place: String) -> String { Self.text(.netCannotConnect, ["place": place]) }

    /// no connection to {place} within {seconds} s
    public static func netConnectTimeout(place: String, seconds: String) -> String {
        Self.text(.netConnectTimeout, ["place": place, "seconds": seconds])
    }

    /// timed out after {seconds} s
    public static func netTimedOut(seconds: String) -> String { Self.text(.netTimedOut, ["seconds": seconds]) }

    /// the certificate of {host} could not be verified
    public static func netCertificate(host: String) -> String { Self.text(.netCertificate, ["host": host]) }

    /// TLS with {host} failed
    public static func netTLS(host: String) -> String { Self.text(.netTLS, ["host": host]) }

    /// the connection to {place} was reset
    public static func netReset(place: String) -> String { Self.text(.netReset, ["place": place]) }

    /// the connection to {place} broke
    public static func netBroke(place: String) -> String { Self.text(.netBroke, ["place": place]) }

    /// {place} closed the connection without replying
    public static func netNoReply(place: String) -> String { Self.text(.netNoReply, ["place": place]) }

    /// the reply from {place} was cut short
    public static func netCutShort(place: String) -> String { Self.text(.netCutShort, ["place": place]) }

    /// the upload to {place} failed ({detail})
    public static func netFailed(place: String, detail: String) -> String {
        Self.text(.netFailed, ["place": place, "detail": detail])
    }

    /// the server's reply is not the JSON the contract asks for ({problem})
    public static func serverNotContract(problem: String) -> String {
        Self.text(.serverNotContract, ["problem": problem])
    }

    /// the server failed (HTTP {status})
    public static func serverFailed(status: String) -> String { Self.text(.serverFailed, ["status": status]) }

    /// the server failed (HTTP {status}): {message}
    public static func serverFailedSaying(status: String, message: String) -> String {
        Self.text(.serverFailedSaying, ["status": status, "message": message])
    }

    /// the server redirects to {location}; give the final address with --server
    public static func serverRedirectsTo(location: String) -> String {
        Self.text(.serverRedirectsTo, ["location": location])
    }

    /// the server answered with an unexpected HTTP status {status}
    public static func serverUnexpected(status: String) -> String { Self.text(.serverUnexpected, ["status": status]) }

    /// the server refused the request (HTTP {status}); check FACECAP_TOKEN
    public static func serverRefusedToken(status: String) -> String {
        Self.text(.serverRefusedToken, ["status": status])
    }

    /// no validation endpoint at this address (HTTP {status}); check --server
    public static func serverNoEndpoint(status: String) -> String { Self.text(.serverNoEndpoint, ["status": status]) }

    /// the server refused the request (HTTP {status})
    public static func serverRefusedRequest(status: String) -> String {
        Self.text(.serverRefusedRequest, ["status": status])
    }

    /// cannot start the photo check ({reason}); close other programs and try again
    public static func checkCannotStart(reason: String) -> String { Self.text(.checkCannotStart, ["reason": reason]) }

    /// plain http:// to {host} would send the photo unencrypted; use https:// (or --insecure-http)
    public static func netPlainHTTP(host: String) -> String { Self.text(.netPlainHTTP, ["host": host]) }

    /// {path}: no such file; check the path
    public static func inputMissing(path: String) -> String { Self.text(.inputMissing, ["path": path]) }

    /// {path}: permission denied; check the file's permissions (ls -l) or run as its owner
    public static func inputDenied(path: String) -> String { Self.text(.inputDenied, ["path": path]) }

    /// {path}: is a directory; give the path of an image or .y4m file
    public static func inputDirectory(path: String) -> String { Self.text(.inputDirectory, ["path": path]) }

    /// {path}: is not a regular file; give the path of an image or .y4m file
    public static func inputNotRegular(path: String) -> String { Self.text(.inputNotRegular, ["path": path]) }

    /// {path}: the file is too large ({size} MiB, at most {limit} MiB); scale it down
    public static func inputTooLarge(path: String, size: String, limit: String) -> String {
        Self.text(.inputTooLarge, ["path": path, "size": size, "limit": limit])
    }

    /// {path}: cannot be read ({reason})
    public static func inputUnreadable(path: String, reason: String) -> String {
        Self.text(.inputUnreadable, ["path": path, "reason": reason])
    }

    /// {path}: not enough memory to decode it
    public static func inputOutOfMemory(path: String) -> String { Self.text(.inputOutOfMemory, ["path": path]) }

    /// {path}: the folder does not exist; create it or choose another with {option}
    public static func outputNoFolder(path: String, option: String) -> String {
        Self.text(.outputNoFolder, ["path": path, "option": option])
    }

    /// {path}: permission denied; choose a folder you can write to
    public static func outputDenied(path: String) -> String { Self.text(.outputDenied, ["path": path]) }

    /// {path}: the file system is read-only; choose another folder
    public static func outputReadOnly(path: String) -> String { Self.text(.outputReadOnly, ["path": path]) }

    /// {path}: the disk is full (or over quota); free some space and try again
    public static func outputDiskFull(path: String) -> String { Self.text(.outputDiskFull, ["path": path]) }

    /// {path}: is a directory; give a file name
    public static func outputIsDirectory(path: String) -> String { Self.text(.outputIsDirectory, ["path": path]) }

    /// {path}: is a file, not a folder; move it away or choose another folder with {option}
    public static func outputNotFolder(path: String, option: String) -> String {
        Self.text(.outputNotFolder, ["path": path, "option": option])
    }

    /// {path}: already exists; it was left as it is
    public static func outputExists(path: String) -> String { Self.text(.outputExists, ["path": path]) }

    /// {path}: cannot write this frame ({detail})
    public static func outputFrame(path: String, detail: String) -> String {
        Self.text(.outputFrame, ["path": path, "detail": detail])
    }

    /// {path}: cannot encode the image ({detail})
    public static func outputEncoding(path: String, detail: String) -> String {
        Self.text(.outputEncoding, ["path": path, "detail": detail])
    }

    /// {path}: cannot be written ({detail})
    public static func outputSystem(path: String, detail: String) -> String {
        Self.text(.outputSystem, ["path": path, "detail": detail])
    }

    /// {path}: {problem}
    public static func filePathProblem(path: String, problem: String) -> String {
        Self.text(.filePathProblem, ["path": path, "problem": problem])
    }

    /// the frame holds no picture ({width}×{height})
    public static func outputEncodingNoPicture(width: String, height: String) -> String {
        Self.text(.outputEncodingNoPicture, ["width": width, "height": height])
    }

    /// {width}×{height} at {rate} fps is not a valid clip size and rate
    public static func outputFrameClipShape(width: String, height: String, rate: String) -> String {
        Self.text(.outputFrameClipShape, ["width": width, "height": height, "rate": rate])
    }
}
