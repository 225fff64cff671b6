#ifndef CONDEMAND_H
#define CONDEMAND_H
// Nothing to call here: this target defines the functions of libsqlite3, libasound, libgpiod,
// libsystemd and libqrencode that flapd uses, and opens each library when one of its functions is first called.
// Swift code calls them through CSQLite, CALSA, CGPIOD, CSystemd and CQRencode as before.
#endif
