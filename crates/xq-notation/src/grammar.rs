//! The pest parser generated from `grammar/move.pest`, and the names of its rules.

use pest_derive::Parser;

/// The parser for one move token.
#[derive(Parser, Debug)]
#[grammar = "../../../grammar/move.pest"]
pub(crate) struct MoveParser;

/// What a rule is called in error messages: Chinese, then English. Exhaustive on purpose: adding
/// a rule to the grammar forces it to get a name here.
pub(crate) fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "结束 end of the move",
        Rule::token => "着法 a move",
        Rule::iccs => "坐标着法 a coordinate move such as h2e2",
        Rule::iccs_square => "坐标 a point such as h2",
        Rule::iccs_file => "列 a file a–i",
        Rule::iccs_rank => "行 a rank 0–9",
        Rule::iccs_dash => "-",
        Rule::chinese => "中文着法 a Chinese move such as 炮二平五",
        Rule::zh_five | Rule::zh_tandem | Rule::zh_plain | Rule::zh_pieceless => {
            "中文着法 a Chinese move such as 炮二平五"
        }
        Rule::zh_piece => "棋子 a piece (帅仕相马车炮兵 将士象卒)",
        Rule::zh_king => "帅/将 king",
        Rule::zh_advisor => "仕/士 advisor",
        Rule::zh_elephant => "相/象 elephant",
        Rule::zh_horse => "马 horse",
        Rule::zh_rook => "车 rook",
        Rule::zh_cannon => "炮 cannon",
        Rule::zh_pawn => "兵/卒 pawn",
        Rule::zh_direction => "进/退/平 a direction (advance, retreat, sideways)",
        Rule::zh_advance => "进 advance",
        Rule::zh_retreat => "退 retreat",
        Rule::zh_traverse => "平 sideways",
        Rule::zh_position => "前/中/后 or 一…五 which piece",
        Rule::zh_front_rear => "前/中/后 front, middle or rear",
        Rule::zh_front => "前 front",
        Rule::zh_middle => "中 middle",
        Rule::zh_rear => "后 rear",
        Rule::zh_ordinal => "一…五 an ordinal",
        Rule::zh_number => "数字 a number (一…九 or １…９)",
        Rule::zh_numeral => "一…九 a Chinese numeral",
        Rule::zh_digit => "１…９ a digit",
        Rule::zh_financial => "壹…玖 a numeral",
        Rule::wxf => "WXF move such as C2.5",
        Rule::wxf_letter => "WXF piece letter K A E H R C P",
        Rule::wxf_king => "K king",
        Rule::wxf_advisor => "A advisor",
        Rule::wxf_elephant => "E elephant",
        Rule::wxf_horse => "H horse",
        Rule::wxf_rook => "R rook",
        Rule::wxf_cannon => "C cannon",
        Rule::wxf_pawn => "P pawn",
        Rule::wxf_number => "a digit 1–9",
        Rule::wxf_direction => "+ - or . (advance, retreat, sideways)",
        Rule::wxf_advance => "+",
        Rule::wxf_retreat => "-",
        Rule::wxf_traverse => ". or =",
        Rule::wxf_sign => "+ or - (front or rear piece)",
        Rule::wxf_plus => "+",
        Rule::wxf_minus => "-",
        Rule::wxf_dot => ".",
        Rule::wxf_ordinal => "a–e",
    }
}
