#include "CALSA.h"

static void vw_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void vw_alsa_silence_errors(void) {
    snd_lib_error_set_handler(vw_silent);
}
