# One build folder (.build-fuzz) instrumented for both libFuzzer and the address sanitizer:
# scripts/fuzz builds flapfuzz there, and scripts/sanitize address builds the tests there, so CI
# compiles the sanitized modules once for both. Every module, C included, has the address
# sanitizer (--sanitize=address); the Swift modules also carry libFuzzer's coverage counters and
# comparison hooks, and every link takes libFuzzer's driver without its main (flapfuzz has its own
# main, which hands the command line to LLVMFuzzerRunDriver; the test runner never calls it).
ADDRESS_BUILD=.build-fuzz

build_with_address_sanitizer() {
    local runtime
    runtime=$(ls "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a | head -n 1)
    swift build --scratch-path "$ADDRESS_BUILD" --sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DFUZZING \
        -Xlinker "$runtime" "$@" >&2
}
