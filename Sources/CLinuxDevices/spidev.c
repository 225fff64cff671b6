// Everything is in the header (static inline); SwiftPM needs a source file.
