import Foundation

/// The user's home directory, under which the defaults put config and data (XDG base directories).
///
/// `$HOME` when it is an absolute path; else (unset, empty or relative, as in `HOME= cloudnotes`)
/// the home directory of the user's account (`getpwuid`), so data never lands under
/// `/.local/share` or a path relative to wherever the command runs. Nil when neither gives an
/// absolute path other than `/`: then there is no default, and commands say to pass `--data-dir`.
public enum HomeDirectory {
    public static func path(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        return usable(accountHome())
    }

    /// The home directory in the account database; nil without an entry for this user.
    static func accountHome() -> String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// `path` when it is absolute and not the root directory.
    static func usable(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), path != "/" else { return nil }
        return path
    }
}
