// libFuzzer's driver, for a program with a main of its own (flapfuzz): present when it is linked
// with -sanitize=fuzzer, and never called otherwise.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
