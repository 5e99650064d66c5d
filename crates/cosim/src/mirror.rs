//! The search machine's mirror of the position (`hw/chip/mirror.v`), co-simulated a clock at a
//! time: [`MirrorSim`] loads a position in the host protocol's 42 bytes, gives MAKE, NULL and
//! UNMAKE for one clock each with the command words the mirror forms for a move, and reads its
//! hash, halfmove clock, side, rights, en-passant file and stack.

use crate::RtlError;

#[cfg(verilated)]
mod ffi {
    use core::ffi::c_void;

    #[repr(C)]
    pub struct State {
        pub hash: u64,
        pub undo_word: u32,
        pub halfmove: u8,
        pub black: u8,
        pub rights: u8,
        pub ep_file: u8,
        pub ply: u8,
        pub busy: u8,
    }

    extern "C" {
        pub fn estuary_mirror_new() -> *mut c_void;
        pub fn estuary_mirror_free(h: *mut c_void);
        pub fn estuary_mirror_load(h: *mut c_void, pos: *const u8) -> i32;
        pub fn estuary_mirror_command(
            h: *mut c_void,
            kind: i32,
            mv: u16,
            make_word: *mut u32,
            unmake_word: *mut u32,
        );
        pub fn estuary_mirror_tick(h: *mut c_void, n: u32);
        pub fn estuary_mirror_state(h: *mut c_void, out: *mut State);
        pub fn estuary_mirror_cycles(h: *mut c_void) -> u64;
    }
}

/// A command to the mirror.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// None: only the words of the move are read.
    Words = 0,
    /// MAKE the move.
    Make = 1,
    /// A null move.
    Null = 2,
    /// Take back the last MAKE or NULL.
    Unmake = 3,
}

/// The mirror's outputs between clocks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MirrorState {
    /// The Zobrist hash.
    pub hash: u64,
    /// The UNMAKE word of the last MAKE or NULL.
    pub undo_word: u32,
    /// The halfmove clock (saturating at 255).
    pub halfmove: u8,
    /// Black to move.
    pub black: bool,
    /// Castling rights: White short, long, Black short, long.
    pub rights: u8,
    /// The en-passant file, 8 for none.
    pub ep_file: u8,
    /// Makes on the stack.
    pub ply: u8,
    /// Still loading.
    pub busy: bool,
}

/// One verilated mirror.
pub struct MirrorSim {
    #[cfg(verilated)]
    handle: *mut core::ffi::c_void,
    #[cfg(not(verilated))]
    never: std::convert::Infallible,
}

impl MirrorSim {
    /// A reset mirror.
    pub fn new() -> Result<MirrorSim, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: no preconditions; the handle is owned by this MirrorSim, freed in Drop.
            let handle = unsafe { ffi::estuary_mirror_new() };
            Ok(MirrorSim { handle })
        }
        #[cfg(not(verilated))]
        Err(RtlError::NotBuilt)
    }

    /// LOADs a position (the host protocol's 42 bytes); returns the clocks until it was ready.
    #[allow(unused_variables)]
    pub fn load(&mut self, position: &[u8; 42]) -> Result<u32, RtlError> {
        #[cfg(verilated)]
        {
            // SAFETY: the handle is live and `position` holds the 42 bytes the harness reads.
            let n = unsafe { ffi::estuary_mirror_load(self.handle, position.as_ptr()) };
            u32::try_from(n).map_err(|_| RtlError::Hung)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Puts `mv` on the move input for two clocks (the mirror prepares), then gives `cmd` for
    /// one clock edge: three clocks, the closest commands may come. Returns the MAKE and UNMAKE
    /// words the mirror prepared for `mv`.
    #[allow(unused_variables)]
    pub fn command(&mut self, cmd: Command, mv: u16) -> (u32, u32) {
        #[cfg(verilated)]
        {
            let (mut make, mut unmake) = (0u32, 0u32);
            // SAFETY: the handle is live; the harness writes the two words it is given.
            unsafe {
                ffi::estuary_mirror_command(self.handle, cmd as i32, mv, &mut make, &mut unmake)
            };
            (make, unmake)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Clocks with no command.
    #[allow(unused_variables)]
    pub fn tick(&mut self, n: u32) {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call only clocks the model.
        unsafe {
            ffi::estuary_mirror_tick(self.handle, n)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// The outputs now.
    pub fn state(&mut self) -> MirrorState {
        #[cfg(verilated)]
        {
            let mut s = ffi::State {
                hash: 0,
                undo_word: 0,
                halfmove: 0,
                black: 0,
                rights: 0,
                ep_file: 0,
                ply: 0,
                busy: 0,
            };
            // SAFETY: the handle is live; `s` is a valid State for the harness to fill.
            unsafe { ffi::estuary_mirror_state(self.handle, &mut s) };
            MirrorState {
                hash: s.hash,
                undo_word: s.undo_word,
                halfmove: s.halfmove,
                black: s.black != 0,
                rights: s.rights,
                ep_file: s.ep_file,
                ply: s.ply,
                busy: s.busy != 0,
            }
        }
        #[cfg(not(verilated))]
        match self.never {}
    }

    /// Clocks since reset.
    pub fn cycles(&self) -> u64 {
        #[cfg(verilated)]
        // SAFETY: the handle is live; the call reads a counter.
        unsafe {
            ffi::estuary_mirror_cycles(self.handle)
        }
        #[cfg(not(verilated))]
        match self.never {}
    }
}

impl Drop for MirrorSim {
    fn drop(&mut self) {
        #[cfg(verilated)]
        // SAFETY: the handle was made by estuary_mirror_new and is freed only here.
        unsafe {
            ffi::estuary_mirror_free(self.handle)
        }
    }
}
