/// Could not save the photo, key o: the person types another folder and the photo is written there (the
/// folder made 0700 when missing, the files 0600, as in the first one).
extension Wizard {
    /// The longest folder path the field takes (PATH_MAX).
    static let folderLimit = 4096

    mutating func typeFolder(_ key: Key, into folder: String, _ failure: SaveFailure) -> [WizardEffect] {
        var failure = failure
        switch key {
        case .enter:
            let directory = folder.trimmingSpaces
            failure.folder = nil
            // Enter on an empty field goes back, as Esc does.
            guard !directory.isEmpty else { break }
            state = .saving(Saving(verdict: failure.verdict, then: failure.then))
            return [.saveIn(directory: directory, verdict: failure.verdict)]
        case .escape:
            failure.folder = nil
        case .backspace:
            failure.folder = String(folder.dropLast())
        case .space:
            failure.folder = folder.count < Self.folderLimit ? folder + " " : folder
        case .character(let character):
            failure.folder = folder.count < Self.folderLimit ? folder + String(character) : folder
        }
        state = .saveFailed(failure)
        return []
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
