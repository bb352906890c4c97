import FaceCapCore
import FaceCapIO

#if canImport(Glibc)
import Glibc
#endif

/// Every subcommand: its name, one line for help, and its entry point.
struct Subcommand: Sendable {
    var name: String
    var synopsis: String
    var summary: String
    var run: @Sendable ([String]) throws -> ExitCode

    /// The table `main` dispatches on and `facecap --help` lists (a static constant, not a main.swift
    /// global: those belong to the main actor, and the help text is built outside it).
    static let all: [Subcommand] = [
        Subcommand(name: "devices", synopsis: "devices [--json]",
                   summary: "list capture devices: path, name, driver, bus, formats, sizes, frame rates",
                   run: DevicesCommand.run),
        Subcommand(name: "analyze", synopsis: "analyze [--json] IMAGE…",
                   summary: "analyse photos (JPEG, PNG, PPM/PGM) or clips (.y4m, every frame)",
                   run: AnalyzeCommand.run),
        Subcommand(name: "record", synopsis: "record [--seconds N] OUT.y4m",
                   summary: "record a clip from the camera for replay and bug reports",
                   run: RecordCommand.run),
        Subcommand(name: "bench", synopsis: "bench [--json]",
                   summary: "measure face-model and per-frame analysis time on this machine",
                   run: BenchCommand.run),
    ]
}

/// The release build targets AVX2 + FMA (see Package.swift). Checked before any optimised code runs, so
/// an older CPU gets a sentence instead of an illegal-instruction crash.
func checkCPU() -> Bool {
    #if arch(x86_64) && !DEBUG
    guard let file = fopen("/proc/cpuinfo", "r") else { return true }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 8192)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard text.hasPrefix("flags") else { continue }
        let flags = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }))
        return flags.contains("avx2") && flags.contains("fma")
    }
    #endif
    return true
}

func runMain() -> ExitCode {
    // Events count time from here (SPEC: `t` = seconds since start).
    let startTime = MonotonicReplayClock().now()
    guard checkCPU() else {
        printError("this build needs a CPU with AVX2 and FMA (Intel Haswell / AMD Excavator, 2013, or newer); "
                   + "rebuild from source without '-target-cpu haswell' in Package.swift for an older CPU")
        return .failure
    }
    var arguments = Array(CommandLine.arguments.dropFirst())
    var helpCommand = "facecap --help"
    do {
        if let first = arguments.first, let command = Subcommand.all.first(where: { $0.name == first }) {
            arguments.removeFirst()
            helpCommand = "facecap \(command.name) --help"
            return try command.run(arguments)
        }
        if let first = arguments.first, !first.hasPrefix("-") {
            let names = Subcommand.all.map(\.name).joined(separator: ", ")
            throw UsageError("unknown command '\(first)' (commands: \(names))")
        }
        return try WizardCommand.run(arguments, startTime: startTime)
    } catch let error as UserFacingError {
        printError(error.message)
        if error.exitCode == .usage { printError("Run '\(helpCommand)' for more.") }
        return error.exitCode
    } catch {
        printError("\(error)")
        return .failure
    }
}

exit(runMain().rawValue)
