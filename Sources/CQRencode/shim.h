// libqrencode's header; COnDemand opens the library when a QR code is first drawn.
#include <qrencode.h>
