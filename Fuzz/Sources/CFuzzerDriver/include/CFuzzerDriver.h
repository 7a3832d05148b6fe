// libFuzzer's driver entry (in the toolchain's libclang_rt.fuzzer): SwiftPM points an
// executable's `main` at `<module>_main`, so each target calls the driver from there.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
