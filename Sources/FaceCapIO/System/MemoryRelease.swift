internal import CSignals

/// What the wizard does about glibc's allocator so that its resident memory stays what it uses (SPEC §10: 60 MB).
/// Capping the malloc arenas (`MALLOC_ARENA_MAX=1` or `2`) was measured too and changed nothing (the worker
/// threads allocate little), so it is not done.
public enum MemoryRelease {
    /// Hands the free pages inside the heap back to the system (`malloc_trim`): glibc returns only the top of
    /// the heap by itself, so the face models' bytes, freed once their interpreters are built, stayed resident
    /// under the interpreters allocated after them (about 11 MB).
    public static func trim() {
        _ = malloc_trim(0)
    }
}
