// Why the libraries are opened on first use rather than by the dynamic loader at start: linked
// the usual way, every start of flapd or flapctl maps libsqlite3, libasound, libgpiod and
// libsystemd with its six dependencies (libgcrypt, liblzma, libzstd, liblz4, libcap,
// libgpg-error) and binds their symbols, about 1.3 ms of a 4.4 ms `flapctl layout --jsonl`
// that uses none of them; flapd without sound, GPIO or Bluetooth straps needs three of them
// only for a moment or not at all. The Debian package depends on them by name (debian/control),
// since dpkg-shlibdeps no longer sees them.
#define _GNU_SOURCE  // program_invocation_short_name
#include "loader.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct vw_library vw_sqlite3 = { "libsqlite3.so.0", "libsqlite3-0", NULL };
struct vw_library vw_asound = { "libasound.so.2", "libasound2", NULL };
struct vw_library vw_gpiod1 = { "libgpiod.so.2", "libgpiod2", NULL };
struct vw_library vw_gpiod2 = { "libgpiod.so.3", "libgpiod3", NULL };
struct vw_library vw_systemd = { "libsystemd.so.0", "libsystemd0", NULL };
struct vw_library vw_qrencode = { "libqrencode.so.4", "libqrencode4", NULL };

static _Noreturn void vw_missing(const struct vw_library *library, const char *what) {
    // A package installed without its dependencies: say which, then stop, as the dynamic loader would.
    fprintf(stderr, "%s: cannot use %s (%s); install the package %s\n",
            program_invocation_short_name, library->soname, what, library->package);
    fflush(stderr);
    _exit(127);
}

static void *vw_open(struct vw_library *library) {
    void *handle = atomic_load_explicit(&library->handle, memory_order_acquire);
    if (!handle) {
        // Two threads may both open it: dlopen counts references and gives both the same handle.
        handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle) atomic_store_explicit(&library->handle, handle, memory_order_release);
    }
    return handle;
}

int vw_open_if_present(struct vw_library *library) {
    return vw_open(library) != NULL;
}

// libgpiod 2 first: a system with both (Debian 12 with a backport) is better served by the newer.
int vw_gpiod_api(void) {
    return vw_open_if_present(&vw_gpiod2) ? 2 : vw_open_if_present(&vw_gpiod1) ? 1 : 0;
}

int vw_has_gpiod1(void) { return vw_open_if_present(&vw_gpiod1); }
int vw_has_gpiod2(void) { return vw_open_if_present(&vw_gpiod2); }

void *vw_on_demand(struct vw_library *library, const char *name, void *_Atomic *cache) {
    void *function = atomic_load_explicit(cache, memory_order_acquire);
    if (function) return function;
    void *handle = vw_open(library);
    if (!handle) vw_missing(library, dlerror());
    function = dlsym(handle, name);
    if (!function) vw_missing(library, name);
    atomic_store_explicit(cache, function, memory_order_release);
    return function;
}
