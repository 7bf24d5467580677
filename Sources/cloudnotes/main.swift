import Foundation

// Notes must never be readable by other users: everything we create is 0600/0700 (ARCHITECTURE §7).
umask(0o077)
setlocale(LC_ALL, "")
CLI.main()
