// ANCHOR: stage-01-board
//! Glue between cozy-chess and the rest of the engine: FEN, UCI move text,
//! move lists.
//!
//! cozy-chess does the hard part (legal move generation with bitboards). What
//! it leaves to us is the text the outside world speaks: FEN strings and UCI
//! moves. The one real trap is castling: cozy-chess writes it as "king takes
//! own rook" (`e1h1`), the Chess960 convention, while UCI for standard chess
//! writes the king's two-square step (`e1g1`).

use arrayvec::ArrayVec;
// ANCHOR: stage-05-quiescence--imports
use cozy_chess::BitBoard;
// ANCHOR_END: stage-05-quiescence--imports
use cozy_chess::{Board, Color, File, Move, Piece, Square};

// ANCHOR: move-list
/// The most legal moves any chess position has is 218.
pub const MAX_MOVES: usize = 218;

/// A list of moves on the stack: room for [`MAX_MOVES`], nothing allocated,
/// and nothing written but the moves pushed (an `ArrayVec` leaves the rest
/// of its array untouched, so a new list costs nothing however large it is).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
// ANCHOR_END: move-list

// ANCHOR: legal-moves
/// All legal moves of `board`, in cozy-chess's generation order.
pub fn legal_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    push_legal_moves(board, &mut list);
    list
}

/// Push the legal moves of `board` onto `list`, in generation order.
pub fn push_legal_moves(board: &Board, list: &mut MoveList) {
    board.generate_moves(|piece_moves| {
        list.extend(piece_moves);
        false
    });
}

/// Does the side to move have at least one legal move? Stops at the first.
pub fn has_legal_move(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// The position after `mv`, which must be legal.
pub fn make_move(board: &Board, mv: Move) -> Board {
    let mut child = board.clone();
    child.play_unchecked(mv);
    child
}
// ANCHOR_END: legal-moves

/// Parse a FEN. EPD-style positions with only the first four fields get the
/// move counters `0 1`, so the test suites' positions can be used directly.
pub fn parse_fen(text: &str) -> Result<Board, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let full = match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        6 => fields.join(" "),
        n => return Err(format!("a FEN has 6 fields (or 4), this one has {n}")),
    };
    let board =
        Board::from_fen(&full, false).map_err(|e| format!("invalid FEN '{full}': {e:?}"))?;
    // cozy-chess accepts two kings side by side; such a position cannot
    // arise, and searching it would let one side capture the other's king.
    let white_king = board.king(Color::White);
    if cozy_chess::get_king_moves(white_king).has(board.king(Color::Black)) {
        return Err(format!(
            "invalid FEN '{full}': the kings are next to each other"
        ));
    }
    Ok(board)
}

/// The FEN of `board`.
pub fn to_fen(board: &Board) -> String {
    format!("{board}")
}

// ANCHOR: castling-text
/// Is `mv` a castling move, i.e. the king "capturing" its own rook?
pub fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.color_on(mv.to) == board.color_on(mv.from)
}

/// UCI text of a legal move: castling as the king's two-square step.
pub fn move_to_uci(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        let to = Square::new(file, mv.from.rank());
        return Move { to, ..mv }.to_string();
    }
    mv.to_string()
}

/// Parse a UCI move and check that it is legal in `board`. Accepts castling
/// both as `e1g1` (UCI) and as `e1h1` (king takes rook).
pub fn parse_uci_move(board: &Board, text: &str) -> Result<Move, String> {
    // cozy-chess reads the first five characters and no more: also check
    // that the move writes back as the same text (no `e2e4x`, no `e2e4k`).
    let mut mv: Move = text
        .parse()
        .ok()
        .filter(|mv: &Move| mv.to_string() == text)
        .ok_or_else(|| format!("'{text}' is not a move in UCI notation"))?;
    let from_is_king = board.piece_on(mv.from) == Some(Piece::King)
        && board.color_on(mv.from) == Some(board.side_to_move());
    let two_files = (mv.from.file() as i32 - mv.to.file() as i32).abs() == 2;
    if from_is_king && two_files && mv.from.rank() == mv.to.rank() {
        let rook_file = if mv.to.file() > mv.from.file() {
            File::H
        } else {
            File::A
        };
        mv.to = Square::new(rook_file, mv.from.rank());
    }
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!("illegal move '{text}' in {}", to_fen(board)))
    }
}
// ANCHOR_END: castling-text

/// The first legal move of `board` that `only` allows (all of them when
/// `only` is empty, as `go searchmoves` means): what the engine plays when
/// it has nothing better.
pub fn first_legal_move(board: &Board, only: &[Move]) -> Option<Move> {
    legal_moves(board)
        .into_iter()
        .find(|mv| only.is_empty() || only.contains(mv))
}

/// Does `mv` capture en passant? A pawn moving diagonally onto an empty
/// square does, and only then does the victim stand beside the target.
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && board.piece_on(mv.to).is_none()
}

/// Name of a side, for messages.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

// ANCHOR: stage-03-negamax
// ANCHOR: position-key
/// The key that identifies a position: repetitions are detected by it.
///
/// cozy-chess's `hash()` includes the en-passant file after every double pawn
/// push, even when no pawn can capture. By the rules a position repeats when
/// the same moves are possible, so an en-passant square that cannot be used
/// must not make two positions differ: we include it only when a capture is
/// actually legal.
pub fn position_key(board: &Board) -> u64 {
    if en_passant_capture_possible(board) {
        board.hash()
    } else {
        board.hash_without_ep()
    }
}

fn en_passant_capture_possible(board: &Board) -> bool {
    let Some(target) = en_passant_square(board) else {
        return false;
    };
    let us = board.side_to_move();
    let our_pawns = board.colored_pieces(us, Piece::Pawn);
    let attackers = cozy_chess::get_pawn_attacks(target, !us) & our_pawns;
    attackers.into_iter().any(|from| {
        board.is_legal(Move {
            from,
            to: target,
            promotion: None,
        })
    })
}

/// The square a pawn of the side to move would take en passant on, if the
/// last move was a double step.
pub fn en_passant_square(board: &Board) -> Option<Square> {
    let rank = cozy_chess::Rank::Sixth.relative_to(board.side_to_move());
    board.en_passant().map(|file| Square::new(file, rank))
}
// ANCHOR_END: position-key

/// Is there too little material on the board for either side ever to mate?
///
/// The rules call a position where no series of legal moves can end in
/// mate a draw (FIDE Laws, article 5.2.2). We recognise the cases a few
/// bitboard tests can see: bare kings, a king and one minor piece against
/// a bare king, and any number of bishops that all stand on squares of one
/// colour (a king can always step off that colour, so it is never mated).
pub fn insufficient_material(board: &Board) -> bool {
    let heavy_or_pawns =
        board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy_or_pawns.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if knights.len() + bishops.len() <= 1 {
        return true;
    }
    let light = cozy_chess::BitBoard::LIGHT_SQUARES;
    knights.is_empty() && ((bishops & light).is_empty() || (bishops & !light).is_empty())
}
// ANCHOR_END: stage-03-negamax
// ANCHOR: stage-05-quiescence

// ANCHOR: noisy-moves
/// Captures (en passant included) and promotions: the moves quiescence
/// search looks at. Castling, encoded as the king capturing its own rook,
/// is not a capture and is left out.
pub fn push_noisy_moves(board: &Board, list: &mut MoveList) {
    moves_landing_on(board, list, may_be_noisy(board), |noisy| noisy);
}

/// Push the legal moves of the pieces on `from` whose target square
/// `keep` leaves in, given the squares where a move would be noisy for the
/// piece moving.
fn moves_landing_on(
    board: &Board,
    list: &mut MoveList,
    from: BitBoard,
    keep: impl Fn(BitBoard) -> BitBoard,
) {
    let us = board.side_to_move();
    let enemies = board.colors(!us);
    let promotion_rank = cozy_chess::Rank::Eighth.relative_to(us).bitboard();
    let en_passant = en_passant_square(board).map_or(BitBoard::EMPTY, Square::bitboard);
    board.generate_moves_for(from, |mut piece_moves| {
        let mut noisy = enemies;
        if piece_moves.piece == Piece::Pawn {
            noisy |= promotion_rank | en_passant;
        }
        piece_moves.to &= keep(noisy);
        list.extend(piece_moves);
        false
    });
}

/// The pieces of the side to move that may have a noisy move: those that
/// attack an enemy piece, and the pawns that may promote or take en
/// passant. Most positions have few; asking only them for their legal
/// moves is far cheaper than asking every piece (castling included), and
/// gives the same moves in the same order.
fn may_be_noisy(board: &Board) -> BitBoard {
    use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};
    let us = board.side_to_move();
    let enemies = board.colors(!us);
    let occupied = board.occupied();
    let en_passant = en_passant_square(board).map_or(BitBoard::EMPTY, Square::bitboard);
    let ours = |piece| board.colored_pieces(us, piece);
    let pawns = ours(Piece::Pawn);
    let last_but_one = cozy_chess::Rank::Seventh.relative_to(us).bitboard();
    let bishop = |square| get_bishop_moves(square, occupied);
    let rook = |square| get_rook_moves(square, occupied);
    (pawns & last_but_one)
        | attacking(pawns, enemies | en_passant, |square| {
            cozy_chess::get_pawn_attacks(square, us)
        })
        | attacking(ours(Piece::Knight), enemies, get_knight_moves)
        | attacking(ours(Piece::Bishop), enemies, bishop)
        | attacking(ours(Piece::Rook), enemies, rook)
        | attacking(ours(Piece::Queen), enemies, |square| {
            bishop(square) | rook(square)
        })
        | attacking(ours(Piece::King), enemies, get_king_moves)
}

/// The squares of `pieces` from which `attacks` reaches one of `targets`.
fn attacking(
    pieces: BitBoard,
    targets: BitBoard,
    attacks: impl Fn(Square) -> BitBoard,
) -> BitBoard {
    let mut found = BitBoard::EMPTY;
    for square in pieces {
        if !(attacks(square) & targets).is_empty() {
            found |= square.bitboard();
        }
    }
    found
}

/// Does the side to move have nothing but its king and pawns?
pub fn only_king_and_pawns(board: &Board) -> bool {
    let ours = board.colors(board.side_to_move());
    let kings_and_pawns = board.pieces(Piece::King) | board.pieces(Piece::Pawn);
    (ours & !kings_and_pawns).is_empty()
}
// ANCHOR_END: noisy-moves
// ANCHOR_END: stage-05-quiescence
// ANCHOR: stage-07-mvvlva

/// The legal moves [`push_noisy_moves`] leaves out: quiet moves, castling
/// included. Together the two give every legal move exactly once.
pub fn push_quiet_moves(board: &Board, list: &mut MoveList) {
    moves_landing_on(board, list, BitBoard::FULL, |noisy| !noisy);
}
// ANCHOR_END: stage-07-mvvlva
// ANCHOR: stage-09-killers

/// Is `mv` a quiet move in `board`: no capture (en passant included) and
/// no promotion?
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    let captures = board.color_on(mv.to) == Some(!board.side_to_move());
    !captures && !is_en_passant(board, mv) && mv.promotion.is_none()
}
// ANCHOR_END: stage-09-killers
// ANCHOR: stage-14-extensions

/// The pieces of `color` that attack `square` in `board`, with the
/// board's occupancy (so a piece behind another of the same line does not
/// count).
pub fn attackers(board: &Board, square: Square, color: Color) -> BitBoard {
    attackers_through(board, square, color, board.occupied())
}

/// The same, with only the pieces of `occupied` blocking the lines. (The
/// result may include pieces outside `occupied`.)
pub fn attackers_through(
    board: &Board,
    square: Square,
    color: Color,
    occupied: BitBoard,
) -> BitBoard {
    use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};
    let theirs = |piece| board.colored_pieces(color, piece);
    let diagonal = theirs(Piece::Bishop) | theirs(Piece::Queen);
    let straight = theirs(Piece::Rook) | theirs(Piece::Queen);
    // A pawn of `color` attacks `square` from where a pawn of the other
    // colour on `square` would attack.
    (cozy_chess::get_pawn_attacks(square, !color) & theirs(Piece::Pawn))
        | (get_knight_moves(square) & theirs(Piece::Knight))
        | (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & straight)
        | (get_king_moves(square) & theirs(Piece::King))
}
// ANCHOR_END: stage-14-extensions
// ANCHOR_END: stage-01-board
