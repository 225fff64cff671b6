import CFuzzerDriver
import FlapFuzzing
import FoundationEssentials
import Glibc

/// The target, named by FLAPFUZZ_TARGET (libFuzzer keeps the command line for itself).
let target = ProcessInfo.processInfo.environment["FLAPFUZZ_TARGET"].flatMap(FuzzTargets.named)?.read

/// `FLAPFUZZ_TARGET=calendar flapfuzz [libFuzzer's options] CORPUS…` under libFuzzer (built by
/// scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`); built plainly, it reads each FILE
/// given through the target once, as the tests do with every input kept in Fuzz/.
@main struct FlapFuzz {
    static func main() {
        if ProcessInfo.processInfo.environment["FLAPFUZZ_LIST"] != nil {
            // For scripts/fuzz: every target's name, one a line.
            for each in FuzzTargets.all { print(each.name) }
            exit(0)
        }
        guard target != nil else {
            print("usage: FLAPFUZZ_TARGET=NAME flapfuzz FILE…  (NAME: \(FuzzTargets.all.map(\.name).joined(separator: ", ")))")
            exit(2)
        }
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    target?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                    return 0
                })
        #else
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else { print("\(path): cannot be read"); exit(1) }
                target?(Array(data))
                print("\(path): read")
            }
        #endif
    }
}
