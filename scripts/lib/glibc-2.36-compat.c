// Linked into the arm64 flapd only (scripts/package --arch arm64), so that one binary runs on
// Raspberry Pi OS 12 (glibc 2.36) as well as 13. The static Swift runtime of Debian's Swift 6.2.3
// was compiled against glibc 2.42's headers, which turn strtol and sscanf into their C23 names
// and declare strlcpy: all three first appeared in glibc 2.38. Defined here by the older calls,
// the link resolves them inside flapd and asks the system's libc for nothing newer than 2.36.
// The one difference: C23's strtol and sscanf also read "0b" binary numbers, which nothing in the
// runtime's uses (environment variables, /proc files) writes.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *string, char **end, int base) {
    return strtol(string, end, base);
}

int __isoc23_sscanf(const char *string, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int count = vsscanf(string, format, arguments);
    va_end(arguments);
    return count;
}

// BSD's: copies at most size - 1 bytes and always ends the copy (size > 0); returns strlen(source).
size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}
