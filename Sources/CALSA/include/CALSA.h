#ifndef CALSA_H
#define CALSA_H
#include <alsa/asoundlib.h>

/// Sends ALSA's library error messages nowhere instead of stderr ("ALSA lib pcm.c:…"); flapd
/// reports failures itself. Written in C because ALSA's handler type is variadic.
void vw_alsa_silence_errors(void);

#endif
