// libgpiod v1 (Debian 12, Raspberry Pi OS bookworm). v2 is a different API: it would get a
// target and a GPIOLines backend of its own.
#include <gpiod.h>
