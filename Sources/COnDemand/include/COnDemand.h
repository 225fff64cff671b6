#ifndef CONDEMAND_H
#define CONDEMAND_H
// Nothing to call here: this target defines the functions of libsqlite3, libasound, libgpiod and
// libsystemd that flapd uses, and opens each library when one of its functions is first called.
// Swift code calls them through CSQLite, CALSA, CGPIOD and CSystemd as before.
#endif
