//! What the classifier found about a move: its nature's reason, the chases with their pieces and
//! protection, why an idle move is idle. Plain data shared by every rule profile, the
//! explanations and the reports.

use serde::Serialize;
use xq_core::{Color, Move, Square};

use crate::nature::Nature;

/// Why a piece counts as unprotected, or why winning it works anyway.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protection {
    /// No piece protects it (无根子).
    Unprotected,
    /// Its protectors cannot legally take back, or taking back would allow mate (假根).
    FakeRoot,
    /// Fewer protectors than attackers (少根子).
    UnderProtected,
    /// It is worth more than its attacker, so even a protected piece is lost in the exchange
    /// (a rook attacked by a horse or cannon, a horse or cannon by an advisor or elephant …).
    OutweighsAttacker,
    /// Won by a check or series of checks (将军抽吃).
    ByChecks,
    /// Protected, but the complete exchange still ends ahead.
    ExchangeWins,
    /// An offer to exchange same-kind pieces that the opponent cannot accept without losing
    /// material or being mated (26.10); the line shows the acceptance.
    ExchangeTrap,
}

/// One chase: which piece attacks which, and why it wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chase {
    /// The piece chased.
    pub target: Square,
    /// Its FEN letter.
    pub target_piece: char,
    /// The piece that takes it.
    pub attacker: Square,
    /// The attacker's FEN letter.
    pub attacker_piece: char,
    /// The co-chasers (24.17): the capturer and every piece without which the chase fails —
    /// one acting in the line, the moved piece, or one whose tactic refutes the recapture.
    pub pieces: Vec<Square>,
    /// Whether two or more pieces act together (联合捉).
    pub joint: bool,
    /// Why it is won.
    pub protection: Protection,
    /// Net material on the rulebook scale (rook 20, horse/cannon 10, advisor/elephant 4).
    pub value: i32,
    /// Even, held only by taking something else (各吃各子, 26.6).
    pub each_takes_each: bool,
    /// The winning line in UCCI.
    pub line: Vec<String>,
    /// The target is a rook pinned by a horse (it stands on the horse's leg towards its king):
    /// chasing it is the heavier violation under AXF rules (WXF diagrams 39–41).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned_by_horse: bool,
}

/// Why a move of the 闲 family is not an attack, or what it does instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum IdleReason {
    /// Nothing new is threatened.
    NothingNew,
    /// The king moved to answer a check: whatever it creates is idle (26.1).
    KingAnswersCheck,
    /// The threats are the king's or a pawn's own (26.1).
    KingOrPawnAlone {
        /// The targets.
        targets: Vec<Square>,
    },
    /// A lone attacking piece's incidental attack on advisors or elephants (26.2).
    DrawingKeyPoint {
        /// The targets.
        targets: Vec<Square>,
    },
    /// The threat is against a piece whose protector left it to give the check being answered
    /// (26.4: the checker's own doing).
    CheckerLeftItsPost {
        /// The targets.
        targets: Vec<Square>,
    },
    /// The move only steps the piece out of a real attack; that its leaving lets a standing
    /// capture pay adds no attacking force (24.3).
    OnlyEscapes {
        /// The targets.
        targets: Vec<Square>,
    },
    /// The threats existed before the move (for an answer to check: before the check).
    NotNew {
        /// The targets.
        targets: Vec<Square>,
    },
}

/// The facts behind a nature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reason {
    /// 将: the checking pieces.
    Check {
        /// Where they stand.
        checkers: Vec<Square>,
        /// The chases the check makes as well (AXF rules only, where a check that also chases
        /// keeps a perpetual chase going).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        chases: Vec<Chase>,
    },
    /// 杀: the mating line found.
    MateThreat {
        /// The line in UCCI, the mover's first (as if the opponent passed).
        line: Vec<String>,
    },
    /// 捉: every new chase.
    Chase {
        /// The chases.
        chases: Vec<Chase>,
    },
    /// 兑: the moved piece faces a same-kind piece, and taking it is an even exchange.
    Exchange {
        /// The moved piece.
        piece: Square,
        /// The piece it faces.
        partner: Square,
    },
    /// 兑: the move threatens to win a piece that faces a same-kind piece of the mover, which
    /// the opponent may exchange instead (26.10): pressing an exchange, not a chase.
    PressesExchange {
        /// The mover's same-kind piece.
        piece: Square,
        /// The piece the move threatens, its partner.
        partner: Square,
    },
    /// 献: the moved piece can be taken without loss.
    Offer {
        /// The moved piece.
        piece: Square,
        /// The pieces that can take it.
        takers: Vec<Square>,
    },
    /// 拦: the moved piece stands in an enemy piece's way.
    Block {
        /// The moved piece.
        piece: Square,
        /// The enemy pieces whose way it blocks.
        blocked: Vec<Square>,
    },
    /// 跟: the moved piece attacks a protected piece it cannot win.
    Follow {
        /// The moved piece.
        piece: Square,
        /// The protected pieces it attacks.
        targets: Vec<Square>,
    },
    /// 闲.
    Idle(IdleReason),
}

/// A classified move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Classified {
    /// The move.
    #[serde(serialize_with = "crate::ser::iccs")]
    pub m: Move,
    /// Who played it.
    #[serde(serialize_with = "crate::ser::color")]
    pub side: Color,
    /// Its nature.
    pub nature: Nature,
    /// Why.
    pub reason: Reason,
}
