#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast Swift cannot import: SQLite copies the bytes it binds.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
