// Linked into the arm64 flapd only (scripts/package --arch arm64), so that one binary runs on
// Raspberry Pi OS 12 (glibc 2.36) as well as 13. The static Swift runtime of Debian's Swift 6.2.3
// was compiled against glibc 2.42's headers, which turn strtol, strtoll, strtoul and sscanf into
// their C23 names and declare strlcpy and strlcat: all first appeared in glibc 2.38. Defined here by the older calls,
// the link resolves them inside flapd and asks the system's libc for nothing newer than 2.36.
// The one difference: the C23 readers also take "0b" binary numbers, which nothing the runtime
// reads with them (environment variables, /proc files) writes.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *string, char **end, int base) {
    return strtol(string, end, base);
}

long long __isoc23_strtoll(const char *string, char **end, int base) {
    return strtoll(string, end, base);
}

unsigned long __isoc23_strtoul(const char *string, char **end, int base) {
    return strtoul(string, end, base);
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

// BSD's: appends to a string of at most size - 1 bytes; returns the length it tried to make.
size_t strlcat(char *destination, const char *source, size_t size) {
    size_t existing = strnlen(destination, size);
    if (existing == size) return size + strlen(source);
    return existing + strlcpy(destination + existing, source, size - existing);
}
