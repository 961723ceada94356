/// The library's file name inside the `bts` data directory (`$XDG_DATA_HOME/bts/`; where that is,
/// the shell's `XDGPaths` decides by the one XDG rule of bts).
package enum LibraryLocation {
    /// The file name inside the `bts` data directory.
    package static let fileName = "library.sqlite"
}
