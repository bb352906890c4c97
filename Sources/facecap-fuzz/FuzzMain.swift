import FaceCapFuzz

#if canImport(Glibc)
import Glibc
#endif

// Built two ways. `make fuzz` compiles it with `-sanitize=fuzzer,address -D FACECAP_LIBFUZZER`: `main`
// hands over to libFuzzer's driver, which calls the entry point below for the target named in
// $FACECAP_FUZZ_TARGET. An ordinary build (every `swift build --build-tests`) gets a small `main` instead
// that runs files through a target once: `facecap-fuzz TARGET FILE…`, to reproduce a crash without the
// fuzzer runtime.
/// One line on stderr (`write`, not `fputs(stderr)`: the C global is not concurrency-safe in Swift 6).
private func warn(_ text: String) {
    var line = "facecap-fuzz: " + text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if FACECAP_LIBFUZZER
nonisolated(unsafe) private var selected: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if selected == nil {
        let name = getenv("FACECAP_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTargets.named(name) else {
            let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
            warn("set FACECAP_FUZZ_TARGET to one of: \(names)")
            exit(64)
        }
        selected = target
    }
    selected?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
/// libFuzzer's C entry to its driver (FuzzerInterface.h), for programs that have their own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// SwiftPM links an executable's `main` to the symbol `<module>_main`, even when the module is built as a
// library; libFuzzer's own `main` then never runs, so this one starts its driver.
@_cdecl("facecap_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return runDriver(&count, &vector) { data, size in fuzzOneInput(data, size) }
}
#else
@main
struct FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 2, let target = FuzzTargets.named(arguments[0]) else {
            let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
            warn("usage: facecap-fuzz TARGET FILE…  (TARGET: \(names))")
            exit(64)
        }
        for path in arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                warn("cannot open \(path)")
                exit(66)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            fclose(file)
            target(bytes)
            print("\(path): ok")
        }
    }
}
#endif
