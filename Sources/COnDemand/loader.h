#ifndef VW_ON_DEMAND_LOADER_H
#define VW_ON_DEMAND_LOADER_H
#include <stdatomic.h>
#include <sqlite3.h>
#include <alsa/asoundlib.h>
// Our own declarations of libgpiod 1 and 2 (the system has one of them, and its header only).
#include "../CGPIOD/gpiod_versions.h"
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <qrencode.h>

/// A shared library opened the first time one of its functions is called.
struct vw_library {
    const char *soname;
    /// The Debian package that installs it, for the message when it cannot be opened.
    const char *package;
    void *_Atomic handle;
};

extern struct vw_library vw_sqlite3, vw_asound, vw_gpiod1, vw_gpiod2, vw_systemd, vw_qrencode;

/// Opens the library if it can be opened, without stopping the program if not: 1 if open.
int vw_open_if_present(struct vw_library *library);

/// The library's function `name`, opening the library if it is not open yet; `cache` keeps the
/// address for the next call. Exits with a message naming the package if either is missing.
void *vw_on_demand(struct vw_library *library, const char *name, void *_Atomic *cache);

/// The real function behind one of ours, of the same type.
#define VW_CALL(library, name) VW_CALL_AS(library, name, #name)

/// The same, for a function we declare under a name of our own (`symbol` is the library's name).
#define VW_CALL_AS(library, name, symbol) \
    ((__typeof__(&name))({ static void *_Atomic cached; vw_on_demand(&library, symbol, &cached); }))

#endif
