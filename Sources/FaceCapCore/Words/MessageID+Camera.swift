/// The camera's messages, the unreachable server's and the files': one line a message, its id, English, plural
/// and note together (`MessageID`'s table).

extension MessageID {
    /// The note of each `{reason}` of cameraError.notCapture.
    private static let reasonNote = "Inside the brackets of cameraError.notCapture: a phrase, no full stop."

    static let cameraMessages: [MessageID: Message] = [
        // Camera problems: the wizard's lines that say what the camera's sentence says, in parts.
        .cameraDevice: Message("camera.device", "Device: {path}"),
        .cameraYourGroups: Message("camera.yourGroups", "Your groups: {groups}"),
        .cameraGroupsNone: Message("camera.groups.none", "none"),
        .cameraAddedAfterLogin: Message(
            "camera.addedAfterLogin",
            "You were added to '{group}' after this login: log out and back in, or for this terminal only:"),
        .cameraFixGroup: Message(
            "camera.fixGroup",
            "Fix: add yourself to the '{group}' group, then log out and back in:"),
        .cameraThisTerminalOnly: Message("camera.thisTerminalOnly", "or, for this terminal only:"),
        .cameraNoHolderVisible: Message(
            "camera.noHolderVisible",
            "No process visible to you holds it; this may show who does:"),
        .cameraInUseBy: Message("camera.inUseBy", "In use by {command} (pid {pid})"),
        .cameraCloseIt: Message(
            "camera.closeIt",
            "Close it; facecap tries again by itself.",
            note: "It and them: the program(s) holding the camera."),
        .cameraNoneReplayClip: Message(
            "camera.none.replayClip",
            "{message}; without a camera, replay a clip: facecap --input FILE.y4m"),
        .cameraReplayRecorded: Message("camera.replayRecorded", "Without a camera, replay a recorded clip:"),

        // The camera layer's sentences (also `facecap devices` and `record`).
        .cameraErrorNoCamera: Message(
            "cameraError.noCamera",
            "no camera found: no video-capture device in {directory} — connect a webcam (check `ls /dev/video*`) or "
                + "pass one through to this VM or container"),
        .cameraErrorNoSuchDevice: Message(
            "cameraError.noSuchDevice",
            "no camera at {path}: no such file — run 'facecap devices' to list cameras"),
        .cameraErrorNotCapture: Message(
            "cameraError.notCapture",
            "{path} is not a video capture device ({reason}) — run 'facecap devices' to list cameras"),
        .cameraNotCaptureNotDevice: Message(
            "cameraError.notCapture.notDevice", "it is not a device node", note: reasonNote),
        .cameraNotCaptureDirectory: Message(
            "cameraError.notCapture.directory", "it is a directory", note: reasonNote),
        .cameraNotCaptureNoDriver: Message(
            "cameraError.notCapture.noDriver", "no driver answers for it", note: reasonNote),
        .cameraNotCaptureNoV4L2: Message(
            "cameraError.notCapture.noV4L2", "it does not answer V4L2 requests", note: reasonNote),
        .cameraNotCaptureNoVideo: Message(
            "cameraError.notCapture.noVideo", "it has no video capture, e.g. a camera's metadata node",
            note: reasonNote),
        .cameraErrorDenied: Message(
            "cameraError.denied",
            "cannot open {path}: permission denied ({access}) — fix: sudo usermod -aG {group} $USER, then log out "
                + "and back in (or run 'newgrp {group}'); over SSH or in a container the device must be passed "
                + "through; also check the camera's privacy switch or shutter"),
        .cameraErrorDeniedPending: Message(
            "cameraError.denied.pending",
            "cannot open {path}: permission denied ({access}) — you were added to group '{group}' after this login "
                + "session started: log out and back in (or run 'newgrp {group}')"),
        .cameraErrorBusy: Message(
            "cameraError.busy",
            "{path} is busy: in use by {holders} — close it and try again",
            plural: "{path} is busy: in use by {holders} — close them and try again",
            note: "It and them: the program(s) holding the camera."),
        .cameraErrorBusyNoneVisible: Message(
            "cameraError.busy.noneVisible",
            "{path} is busy: another program is using the camera (none visible to this user; try 'sudo fuser "
                + "{path}') — close it and try again"),
        .cameraErrorUnsupported: Message(
            "cameraError.unsupported",
            "{path} offers no picture format facecap can read (it offers {formats}; facecap reads YUYV, NV12, YU12, "
                + "YV12, RGB and MJPEG, and what libv4l2 converts to RGB24) — try another camera"),
        .cameraErrorNoFormats: Message("cameraError.noFormats", "no formats"),
        .cameraErrorFormatNotOffered: Message(
            "cameraError.formatNotOffered",
            "{path} does not give {format} (it offers {formats}) — leave out --format, or name one of those"),
        .cameraConvertedFormat: Message("camera.convertedFormat", "{format} via libv4l2"),
        .cameraErrorDisconnected: Message(
            "cameraError.disconnected",
            "camera disconnected: {path} stopped answering (unplugged?) — reconnect it and try again"),
        .cameraErrorStalled: Message(
            "cameraError.stalled",
            "camera stalled: no frame from {path} for {seconds} s — check the privacy shutter or switch, then "
                + "reconnect the camera and try again"),
        .cameraErrorNoBandwidth: Message(
            "cameraError.noBandwidth",
            "{path} cannot stream at this size and frame rate: not enough USB bandwidth — try a smaller --size or "
                + "--fps, or plug the camera (or other USB devices) into another port"),
        .cameraErrorIO: Message(
            "cameraError.io",
            "camera error: {path} failed to deliver a frame (I/O error {count} time in a row) — reconnect the camera "
                + "and try again",
            plural: "camera error: {path} failed to deliver a frame (I/O error {count} times in a row) — reconnect "
                + "the camera and try again"),
        .cameraErrorSystem: Message(
            "cameraError.system",
            "camera error on {path}: {operation} failed: {reason} — reconnect the camera or try another one (see "
                + "'facecap devices')"),
        .cameraErrorClosed: Message("cameraError.closed", "camera {path} was already closed — open it again"),
        .accessOwner: Message("access.owner", "owner {owner}, group {group}, mode {mode}"),
        .accessYouAreIn: Message("access.youAreIn", "you are in: {groups}"),
        .accessNoGroups: Message("access.noGroups", "no groups"),
        .clipEnded: Message(
            "clip.ended",
            "{path}: the clip ended after {count} frame; use --loop to replay it continuously",
            plural: "{path}: the clip ended after {count} frames; use --loop to replay it continuously"),
        .clipEndedCut: Message(
            "clip.ended.cut",
            "{path}: the clip ended after {count} frame (its last frame is incomplete); use --loop to replay it "
                + "continuously",
            plural: "{path}: the clip ended after {count} frames (its last frame is incomplete); use --loop to "
                + "replay it continuously"),
        .clipUnreadable: Message("clip.unreadable", "{path}: the clip cannot be read"),

        // The server could not be reached (the Connection error screen); `detail` is curl's text.
        .netDetail: Message("net.detail", "{message} ({detail})"),
        .netCancelled: Message("net.cancelled", "cancelled"),
        .netReplyTooLarge: Message("net.replyTooLarge", "the server's reply is larger than {size}"),
        .netDNS: Message("net.dns", "cannot find the server {host} (DNS lookup failed)"),
        .netProxyDNS: Message("net.proxyDNS", "cannot find the proxy server (DNS lookup failed)"),
        .netRefused: Message("net.refused", "connection refused by {place}"),
        .netNoRoute: Message("net.noRoute", "no route to {place} (network unreachable)"),
        .netCannotConnect: Message("net.cannotConnect", "cannot connect to {place}"),
        .netConnectTimeout: Message("net.connectTimeout", "no connection to {place} within {seconds} s"),
        .netTimedOut: Message("net.timedOut", "timed out after {seconds} s"),
        .netCertificate: Message("net.certificate", "the certificate of {host} could not be verified"),
        .netTLS: Message("net.tls", "TLS with {host} failed"),
        .netReset: Message("net.reset", "the connection to {place} was reset"),
        .netBroke: Message("net.broke", "the connection to {place} broke"),
        .netNoReply: Message("net.noReply", "{place} closed the connection without replying"),
        .netCutShort: Message("net.cutShort", "the reply from {place} was cut short"),
        .netBadAddress: Message("net.badAddress", "cannot use the server address; check --server"),
        .netFailed: Message("net.failed", "the upload to {place} failed ({detail})"),
        .netCannotBuild: Message("net.cannotBuild", "could not build the upload (no free multipart boundary)"),
        .netCannotStart: Message("net.cannotStart", "libcurl could not start (out of memory?)"),
        .serverNotContract: Message(
            "server.notContract",
            "the server's reply is not the JSON the contract asks for ({problem})"),
        .serverBusy: Message("server.busy", "the server is busy (HTTP 429 Too Many Requests)"),
        .serverFailed: Message("server.failed", "the server failed (HTTP {status})"),
        .serverFailedSaying: Message("server.failedSaying", "the server failed (HTTP {status}): {message}"),
        .serverRedirects: Message("server.redirects", "the server redirects; give the final address with --server"),
        .serverRedirectsTo: Message(
            "server.redirectsTo",
            "the server redirects to {location}; give the final address with --server"),
        .serverUnexpected: Message("server.unexpected", "the server answered with an unexpected HTTP status {status}"),
        .serverRefusedToken: Message(
            "server.refused.token",
            "the server refused the request (HTTP {status}); check FACECAP_TOKEN"),
        .serverNoEndpoint: Message(
            "server.noEndpoint",
            "no validation endpoint at this address (HTTP {status}); check --server"),
        .serverTooLarge: Message("server.tooLarge", "the server refuses a photo this large (HTTP 413)"),
        .serverRefusedRequest: Message("server.refused.request", "the server refused the request (HTTP {status})"),
        .checkCannotStart: Message(
            "check.cannotStart",
            "cannot start the photo check ({reason}); close other programs and try again"),
        .netPlainHTTP: Message(
            "net.plainHTTP",
            "plain http:// to {host} would send the photo unencrypted; use https:// (or --insecure-http)",
            note: "FACECAP_TOKEN, http://, https:// and --insecure-http stay as they are."),

        // Files.
        .inputMissing: Message("input.missing", "{path}: no such file; check the path"),
        .inputDenied: Message(
            "input.denied",
            "{path}: permission denied; check the file's permissions (ls -l) or run as its owner"),
        .inputDirectory: Message("input.directory", "{path}: is a directory; give the path of an image or .y4m file"),
        .inputNotRegular: Message(
            "input.notRegular",
            "{path}: is not a regular file; give the path of an image or .y4m file"),
        .inputTooLarge: Message(
            "input.tooLarge",
            "{path}: the file is too large ({size} MiB, at most {limit} MiB); scale it down"),
        .inputUnreadable: Message("input.unreadable", "{path}: cannot be read ({reason})"),
        .inputOutOfMemory: Message("input.outOfMemory", "{path}: not enough memory to decode it"),
        .outputNoFolder: Message(
            "output.noFolder",
            "{path}: the folder does not exist; create it or choose another with {option}"),
        .outputDenied: Message("output.denied", "{path}: permission denied; choose a folder you can write to"),
        .outputReadOnly: Message("output.readOnly", "{path}: the file system is read-only; choose another folder"),
        .outputDiskFull: Message(
            "output.diskFull",
            "{path}: the disk is full (or over quota); free some space and try again"),
        .outputIsDirectory: Message("output.isDirectory", "{path}: is a directory; give a file name"),
        .outputNotFolder: Message(
            "output.notFolder",
            "{path}: is a file, not a folder; move it away or choose another folder with {option}"),
        .outputExists: Message("output.exists", "{path}: already exists; it was left as it is"),
        .outputFrame: Message("output.frame", "{path}: cannot write this frame ({detail})"),
        .outputEncoding: Message("output.encoding", "{path}: cannot encode the image ({detail})"),
        .outputEncodingNoPicture: Message(
            "output.encoding.noPicture", "the frame holds no picture ({width}×{height})",
            note: "Inside the brackets of output.encoding: a phrase, no full stop."),
        .outputFrameClipShape: Message(
            "output.frame.clipShape", "{width}×{height} at {rate} fps is not a valid clip size and rate",
            note: "Inside the brackets of output.frame: a phrase, no full stop. {rate} is a number such as 30.0."),
        .outputFrameClosed: Message(
            "output.frame.closed", "the writer is closed",
            note: "Inside the brackets of output.frame: a phrase, no full stop. The clip being recorded was closed."),
        .outputSystem: Message("output.system", "{path}: cannot be written ({detail})"),
        .outputCannotCreate: Message("output.cannotCreate", "files cannot be created there"),
        .filePathProblem: Message("file.pathProblem", "{path}: {problem}"),
    ]
}
