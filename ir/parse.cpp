#include "ir/parse.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory_resource>
#include <optional>
#include <span>
#include <unordered_map>

#include "ir/arena.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/suggest.h"

namespace uopc {
namespace {

// ---- Tokens ---------------------------------------------------------------------------------

enum class Tok { Name, Word, Number, Punct };

struct Token {
  Tok kind;
  std::string_view text;
  int col;
};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string describe_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
  return buf;
}

// A number: -?(digits[.digits]|.digits)([eE][+-]?digits)? or -?inf or nan.
size_t number_length(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (s.substr(i, 3) == "inf" && (i + 3 == s.size() || !is_word_char(s[i + 3]))) return i + 3;
  size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    size_t exp_digits = 0;
    while (j < s.size() && is_digit(s[j])) ++j, ++exp_digits;
    if (exp_digits) i = j;
  }
  return i;
}

// The extent of the token at `col` (1-based) of `line`, for the ~~~ under it: a name, word or
// number; a bracketed list or tuple to its closing bracket; else one character.
int token_length(std::string_view line, int col) {
  size_t at = static_cast<size_t>(col - 1);
  if (col <= 0 || at >= line.size()) return 1;
  char open = line[at];
  if (open == '(' || open == '[') {
    char close = open == '(' ? ')' : ']';
    int depth = 0;
    for (size_t i = at; i < line.size(); ++i) {
      depth += line[i] == open ? 1 : line[i] == close ? -1 : 0;
      if (depth == 0) return static_cast<int>(i - at + 1);
    }
    return static_cast<int>(line.size() - at);
  }
  size_t i = at;
  auto part = [](char c) { return is_word_char(c) || c == '.' || c == '%' || c == '-'; };
  while (i < line.size() && part(line[i]) && (i == at || line[i] != '%')) ++i;
  // key=value and key=[...] are one token for the caret
  if (i < line.size() && line[i] == '=' && i > at && line[at] != '%') {
    if (i + 1 < line.size() && line[i + 1] == '[')
      return static_cast<int>(i + 1 - at) + token_length(line, static_cast<int>(i + 2));
    size_t j = i + 1;
    while (j < line.size() && part(line[j])) ++j;
    i = j;
  }
  return std::max(1, static_cast<int>(i - at));
}

[[noreturn]] void fail_at(Location loc, std::string_view line, int col, const std::string& msg,
                          std::vector<Note> notes = {}) {
  loc.col = col;
  loc.length = token_length(line, col);
  loc.source = std::string(line);
  throw UserError(loc, msg, std::move(notes));
}

class Lexer {
 public:
  Lexer(std::string_view line, const Location& loc) : line_(line), loc_(loc) {}

  // Fills `out` (a list kept from line to line, so that its memory is reused).
  void run(std::vector<Token>& out) {
    out.clear();
    size_t i = 0;
    while (i < line_.size()) {
      char c = line_[i];
      if (c == ' ' || c == '\t') {
        ++i;
        continue;
      }
      if (c == '#') break;
      int col = static_cast<int>(i) + 1;
      size_t n = 0;
      Tok kind = Tok::Punct;
      if (c == '%') {
        n = 1;
        while (i + n < line_.size() && (is_word_char(line_[i + n]) || line_[i + n] == '.')) ++n;
        if (n == 1) error(col, "a name needs letters, digits, '_' or '.' after '%'");
        kind = Tok::Name;
      } else if (is_digit(c) || c == '-' || c == '.') {
        n = number_length(line_.substr(i));
        if (n == 0) error(col, "malformed number");
        if (i + n < line_.size() && (is_word_char(line_[i + n]) || line_[i + n] == '.'))
          error(col, "malformed number '" + std::string(line_.substr(i, n + 1)) + "...'");
        kind = Tok::Number;
      } else if (is_word_char(c)) {
        while (i + n < line_.size() && is_word_char(line_[i + n])) ++n;
        kind = Tok::Word;
        if (line_.substr(i, n) == "nan" || line_.substr(i, n) == "inf") kind = Tok::Number;
      } else if (std::string_view("=[](),:").find(c) != std::string_view::npos) {
        n = 1;
      } else {
        error(col, "unexpected " + describe_char(c));
      }
      out.push_back({kind, line_.substr(i, n), col});
      i += n;
    }
  }

 private:
  [[noreturn]] void error(int col, const std::string& msg) { fail_at(loc_, line_, col, msg); }
  std::string_view line_;
  const Location& loc_;
};

// ---- Statement syntax -------------------------------------------------------------------------

struct Literal {
  enum Kind { Int, Float, Bool } kind;
  int64_t i = 0;
  float f = 0;
  bool b = false;
};

// A book-form tuple: (3, 4) or ((0, 2), (1, 4)). Leaves are integers.
struct Tuple {
  std::vector<int64_t> flat;
  std::vector<std::vector<int64_t>> pairs;  // set when the elements are tuples
  bool nested = false;
};

struct Operand {
  int col = 0;
  std::string_view text;
  std::string_view name;  // set for %names
  std::optional<Literal> lit;
  std::optional<Tuple> tuple;
};

struct Attr {
  int col = 0;
  std::string_view key;
  std::optional<Token> scalar;               // key=value
  std::optional<std::vector<int64_t>> list;  // key=[...]
  bool used = false;
};

struct Syntax {
  std::string_view name;
  int name_col = 0;
  std::string_view op;
  int op_col = 0;
  std::vector<Operand> operands;
  std::vector<Attr> attrs;
  bool book = false;  // commas, tuples or ' : ' appeared

  // Empty again, keeping the lists' memory for the next line.
  void clear() {
    operands.clear();
    attrs.clear();
    book = false;
  }
};

Literal parse_literal(const Token& tok, const Location& loc, std::string_view line) {
  auto error = [&](int col, const std::string& msg) { fail_at(loc, line, col, msg); };
  std::string_view s = tok.text;
  if (s == "true" || s == "false") return {Literal::Bool, 0, 0, s == "true"};
  if (s == "nan") return {Literal::Float, 0, std::numeric_limits<float>::quiet_NaN(), false};
  if (s == "inf" || s == "-inf")
    return {Literal::Float, 0, s[0] == '-' ? -INFINITY : INFINITY, false};
  if (s.find_first_of(".eE") == std::string_view::npos) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < INT32_MIN || v > INT32_MAX)
      error(tok.col, "integer literal " + std::string(s) + " is outside the i32 range");
    return {Literal::Int, v, 0, false};
  }
  float f = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), f);
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports both overflow and underflow; only a value rounding to inf is wrong.
    double d = std::strtod(std::string(s).c_str(), nullptr);
    if (std::fabs(d) > std::numeric_limits<float>::max())
      error(tok.col, "f32 literal " + std::string(s) + " is out of range");
    f = static_cast<float>(d);
  } else if (ec != std::errc() || ptr != s.data() + s.size()) {
    error(tok.col, "malformed number '" + std::string(s) + "'");
  }
  return {Literal::Float, 0, f, false};
}

inline constexpr int64_t kMaxInteger = int64_t{1} << 40;

class StatementParser {
 public:
  StatementParser(const std::vector<Token>& toks, const Location& loc, std::string_view line)
      : t_(toks), loc_(loc), line_(line) {}

  void run(Syntax& s) {
    s.clear();
    const Token& name = expect(Tok::Name, "a statement starts with '%name ='");
    s.name = name.text;
    s.name_col = name.col;
    if (!accept_punct('=')) error(col_here(), "expected '=' after " + std::string(name.text));
    const Token& op = expect(Tok::Word, "expected an op name after '='");
    s.op = op.text;
    s.op_col = op.col;
    bool attrs_only = false;
    while (pos_ < t_.size()) {
      const Token& tok = t_[pos_];
      if (is_punct(tok, ',')) {
        s.book = true;
        ++pos_;
        continue;
      }
      if (is_punct(tok, ':')) {
        s.book = true;
        attrs_only = true;
        ++pos_;
        continue;
      }
      if (tok.kind == Tok::Word && pos_ + 1 < t_.size() && is_punct(t_[pos_ + 1], '=')) {
        s.attrs.push_back(attr());
        continue;
      }
      if (attrs_only) error(tok.col, "expected key=value after ':'");
      s.operands.push_back(operand(s));
    }
  }

 private:
  static bool is_punct(const Token& t, char c) {
    return t.kind == Tok::Punct && t.text.size() == 1 && t.text[0] == c;
  }
  bool accept_punct(char c) {
    if (pos_ < t_.size() && is_punct(t_[pos_], c)) return ++pos_, true;
    return false;
  }
  int col_here() const {
    if (pos_ < t_.size()) return t_[pos_].col;
    return t_.empty() ? 1 : t_.back().col + static_cast<int>(t_.back().text.size());
  }
  // A literal message: built into a string only for the error.
  const Token& expect(Tok kind, const char* msg) {
    if (pos_ >= t_.size() || t_[pos_].kind != kind) error(col_here(), msg);
    return t_[pos_++];
  }
  [[noreturn]] void error(int col, const std::string& msg) const { fail_at(loc_, line_, col, msg); }

  int64_t integer(const Token& tok) const {
    if (tok.kind != Tok::Number)
      error(tok.col, "expected an integer, got '" + std::string(tok.text) + "'");
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(tok.text.data(), tok.text.data() + tok.text.size(), v);
    bool whole = ptr == tok.text.data() + tok.text.size();
    if (ec == std::errc::invalid_argument || (ec == std::errc() && !whole))
      error(tok.col, "expected an integer, got '" + std::string(tok.text) + "'");
    // Sizes and offsets beyond 2^40 can never be valid; refusing them keeps later sums exact.
    if (ec == std::errc::result_out_of_range || v > kMaxInteger || v < -kMaxInteger)
      error(tok.col, "integer " + std::string(tok.text) + " is too large");
    return v;
  }

  Attr attr() {
    Attr a;
    a.col = t_[pos_].col;
    a.key = t_[pos_].text;
    pos_ += 2;  // key '='
    if (accept_punct('[')) {
      std::vector<int64_t> list;
      while (!accept_punct(']')) {
        if (pos_ >= t_.size()) error(col_here(), "missing ']' in " + std::string(a.key) + "=[...]");
        list.push_back(integer(t_[pos_++]));
      }
      a.list = std::move(list);
    } else if (pos_ < t_.size() && (t_[pos_].kind == Tok::Number || t_[pos_].kind == Tok::Word)) {
      a.scalar = t_[pos_++];
    } else {
      error(col_here(), "expected a value after " + std::string(a.key) + "=");
    }
    return a;
  }

  Operand operand(Syntax& s) {
    const Token& tok = t_[pos_];
    Operand o;
    o.col = tok.col;
    o.text = tok.text;
    if (tok.kind == Tok::Name) {
      o.name = tok.text;
      ++pos_;
    } else if (is_punct(tok, '(')) {
      s.book = true;
      o.tuple = tuple();
    } else if (tok.kind == Tok::Number || tok.text == "true" || tok.text == "false") {
      o.lit = parse_literal(tok, loc_, line_);
      ++pos_;
    } else {
      error(tok.col, "unexpected '" + std::string(tok.text) + "'");
    }
    return o;
  }

  // '(' elements ')' with elements integers or, one level down, integer tuples.
  Tuple tuple() {
    Tuple out;
    ++pos_;  // '('
    bool first = true;
    while (!accept_punct(')')) {
      if (pos_ >= t_.size()) error(col_here(), "missing ')'");
      if (!first && !accept_punct(',')) error(col_here(), "expected ',' or ')' in a tuple");
      first = false;
      if (accept_punct(')')) break;  // trailing comma
      if (pos_ < t_.size() && is_punct(t_[pos_], '(')) {
        if (!out.flat.empty()) error(col_here(), "a tuple mixes integers and tuples");
        out.nested = true;
        ++pos_;
        std::vector<int64_t> inner;
        bool inner_first = true;
        while (!accept_punct(')')) {
          if (pos_ >= t_.size()) error(col_here(), "missing ')'");
          if (!inner_first && !accept_punct(','))
            error(col_here(), "expected ',' or ')' in a tuple");
          inner_first = false;
          if (accept_punct(')')) break;
          if (pos_ >= t_.size()) error(col_here(), "missing ')'");
          inner.push_back(integer(t_[pos_++]));
        }
        out.pairs.push_back(std::move(inner));
      } else {
        if (out.nested) error(col_here(), "a tuple mixes integers and tuples");
        if (pos_ >= t_.size()) error(col_here(), "missing ')'");
        out.flat.push_back(integer(t_[pos_++]));
      }
    }
    return out;
  }

  const std::vector<Token>& t_;
  size_t pos_ = 0;
  const Location& loc_;
  std::string_view line_;
};

// ---- Building nodes ---------------------------------------------------------------------------

Scalar literal_value(const Literal& l, DType d) {
  if (l.kind == Literal::Bool) return Scalar::of_bool(l.b);
  if (l.kind == Literal::Float) return Scalar::of_f32(l.f);
  return d == DType::F32 ? Scalar::of_f32(static_cast<float>(l.i))
                         : Scalar::of_i32(static_cast<int32_t>(l.i));
}

DType natural_dtype(const Literal& l) {
  return l.kind == Literal::Bool ? DType::Bool : l.kind == Literal::Float ? DType::F32 : DType::I32;
}

// The ops a statement may name, for suggestions.
const std::vector<std::string>& statement_ops() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (int k = 0; k < kOpCount; ++k) {
      Op op = static_cast<Op>(k);
      if (op != Op::Const && op_kind(op) != OpKind::Loop) out.emplace_back(op_name(op));
    }
    return out;
  }();
  return names;
}

// The attributes each op takes (docs/LANGUAGE.md).
std::span<const std::string_view> attribute_names(Op op) {
  static constexpr std::string_view buffer[] = {"dtype", "slot"}, shape[] = {"shape"},
                                    order[] = {"order"}, axes[] = {"axes"},
                                    pads[] = {"pads", "value"}, fold[] = {"op", "pop"},
                                    dtype[] = {"dtype"};
  switch (op) {
    case Op::Buffer:
      return buffer;
    case Op::Reshape:
    case Op::Expand:
    case Op::Shrink:
      return shape;
    case Op::Permute:
      return order;
    case Op::Flip:
      return axes;
    case Op::Pad:
      return pads;
    case Op::Reduce:
      return fold;
    case Op::Cast:
      return dtype;
    default:
      return {};
  }
}

bool takes_attribute(Op op, std::string_view key) {
  std::span<const std::string_view> names = attribute_names(op);
  return std::find(names.begin(), names.end(), key) != names.end();
}

// The same, for suggestions.
std::vector<std::string> attributes_of(Op op) {
  std::span<const std::string_view> names = attribute_names(op);
  return {names.begin(), names.end()};
}

// A known word for a misspelt one, counting the names other libraries use ("float32", "sum").
std::string suggestion(std::string_view word, const std::vector<std::string>& known,
                       const std::vector<std::pair<const char*, const char*>>& aliases = {}) {
  for (const auto& [alias, meant] : aliases)
    if (word == alias) return "; did you mean '" + std::string(meant) + "'?";
  return did_you_mean(word, known);
}

class Builder {
 public:
  explicit Builder(Program& p) : p_(p) {}

  void statement(Syntax& s, Location loc, std::string_view line) {
    loc_ = loc;
    line_ = line;
    s_ = &s;
    if (auto it = names_.find(s.name); it != names_.end())
      error(s.name_col,
            std::string(s.name) + " is already defined on line " +
                std::to_string(p_.statements[it->second].line),
            {definition(it->second, "the first definition")});
    std::optional<Op> op = parse_op(s.op);
    if (!op || *op == Op::Const || op_kind(*op) == OpKind::Loop)
      error(s.op_col, "unknown op '" + std::string(s.op) + "'" + suggestion(s.op, statement_ops()));
    for (const Attr& a : s.attrs)
      if (!takes_attribute(*op, a.key))
        error(a.col, std::string(s.op) + " has no attribute '" + std::string(a.key) + "'" +
                         suggestion(a.key, attributes_of(*op)));
    UOpRef node;
    try {
      node = build(*op);
    } catch (const TypeError& e) {
      blamed(e, *op);
    }
    for (const Attr& a : s.attrs)
      if (!a.used)
        error(a.col, std::string(s.op) + " has no attribute '" + std::string(a.key) + "'" +
                         suggestion(a.key, attributes_of(*op)));
    for (size_t i : pending_uses_) p_.statements[i].used = true;
    pending_uses_.clear();
    names_.emplace(s.name, p_.statements.size());
    p_.statements.push_back({std::string(s.name), node, loc.line, false});
    defined_.push_back({line, s.name_col});
  }

 private:
  [[noreturn]] void error(int col, const std::string& msg, std::vector<Note> notes = {}) const {
    fail_at(loc_, line_, col, msg, std::move(notes));
  }

  // A note at the statement that defines p_.statements[i].
  Note definition(size_t i, const std::string& what) const {
    const Statement& st = p_.statements[i];
    Location at = loc_;
    at.line = st.line;
    at.col = defined_[i].col;
    at.length = static_cast<int>(st.name.size());
    at.source = std::string(defined_[i].line);
    return {at, what};
  }

  // The value a named operand refers to, as a note: "%a is f32[2 3], defined here".
  std::vector<Note> definition_of(const Operand& o) const {
    if (o.name.empty()) return {};
    auto it = names_.find(o.name);
    if (it == names_.end()) return {};
    const UOpRef& v = p_.statements[it->second].node;
    return {definition(it->second, std::string(o.name) + " is " +
                                       std::string(dtype_name(v->dtype)) + shape_str(v->shape) +
                                       ", defined here")};
  }

  // A type rule failed: point at what it blames, and at the definition of the value it
  // concerns. A movement op's rule is about its attribute and its operand's shape.
  [[noreturn]] void blamed(const TypeError& e, Op op) const {
    const std::vector<Operand>& ops = s_->operands;
    std::vector<Note> first = ops.empty() ? std::vector<Note>{} : definition_of(ops[0]);
    std::string attribute = e.blame().attribute ? e.blame().attribute : "";
    std::vector<std::string> attrs = attributes_of(op);
    if (e.blame().operand < 0 && attribute.empty() && op_kind(op) == OpKind::Movement &&
        !attrs.empty())
      attribute = attrs[0];
    if (!attribute.empty()) {
      for (const Attr& a : s_->attrs)
        if (a.key == attribute) error(a.col, e.what(), first);
      // The book form gives the attribute as the tuple after the operand.
      for (size_t k = 1; k < ops.size(); ++k)
        if (ops[k].tuple) error(ops[k].col, e.what(), first);
    }
    if (e.blame().operand >= 0 && static_cast<size_t>(e.blame().operand) < ops.size()) {
      const Operand& o = ops[static_cast<size_t>(e.blame().operand)];
      std::vector<Note> notes = definition_of(o);
      error(o.col, e.what(), notes.empty() ? first : notes);
    }
    error(s_->op_col, e.what(), first);
  }

  std::string op_text() const { return std::string(s_->op); }

  // ---- attributes
  bool has_attr(std::string_view key) const {
    for (const Attr& a : s_->attrs)
      if (a.key == key) return true;
    return false;
  }
  Attr* find_attr(std::string_view key) {
    Attr* found = nullptr;
    for (Attr& a : s_->attrs) {
      if (a.key != key) continue;
      if (found) error(a.col, "attribute '" + std::string(key) + "' given twice");
      found = &a;
    }
    if (found) found->used = true;
    return found;
  }
  // Null when the attribute is not given.
  const std::vector<int64_t>* list_attr(std::string_view key) {
    Attr* a = find_attr(key);
    if (!a) return nullptr;
    if (!a->list)
      error(a->col, std::string(key) + " takes a list, like " + std::string(key) + "=[1 2]");
    return &*a->list;
  }
  std::optional<int64_t> int_attr(std::string_view key) {
    Attr* a = find_attr(key);
    if (!a) return std::nullopt;
    if (!a->scalar || a->scalar->kind != Tok::Number)
      error(a->col, std::string(key) + " takes an integer");
    std::string_view t = a->scalar->text;
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size() || v > INT32_MAX || v < INT32_MIN)
      error(a->col, std::string(key) + "=" + std::string(t) + " is not an integer in range");
    return v;
  }
  std::optional<std::string_view> word_attr(std::string_view key) {
    Attr* a = find_attr(key);
    if (!a) return std::nullopt;
    if (!a->scalar || a->scalar->kind != Tok::Word)
      error(a->col, std::string(key) + " takes a word");
    return a->scalar->text;
  }
  DType dtype_attr(DType fallback) {
    Attr* a = find_attr("dtype");
    if (!a) return fallback;
    std::optional<DType> d;
    if (a->scalar) d = parse_dtype(a->scalar->text);
    if (!d)
      error(a->col, "dtype must be bool, i32 or f32" +
                        (a->scalar ? suggestion(a->scalar->text, {"bool", "i32", "f32"},
                                                {{"float32", "f32"},
                                                 {"float", "f32"},
                                                 {"int32", "i32"},
                                                 {"int", "i32"},
                                                 {"boolean", "bool"}})
                                   : ""));
    return *d;
  }

  // ---- operands
  const Operand& operand_at(size_t i, const char* what) {
    if (i >= s_->operands.size()) error(s_->op_col, op_text() + " is missing its " + what);
    return s_->operands[i];
  }
  void expect_operands(size_t n) {
    if (s_->operands.size() > n)
      error(s_->operands[n].col, op_text() + " takes " + std::to_string(n) + " operand" +
                                     (n == 1 ? "" : "s") + ", got " +
                                     std::to_string(s_->operands.size()));
  }
  UOpRef named(const Operand& o) {
    auto it = names_.find(o.name);
    if (it == names_.end()) {
      std::vector<std::string> known;
      for (const auto& [name, at] : names_) known.emplace_back(name);
      std::sort(known.begin(), known.end());
      error(o.col, std::string(o.name) + " is not defined (names are defined before use)" +
                       did_you_mean(o.name, known));
    }
    const Statement& st = p_.statements[it->second];
    if (st.is_assert()) error(o.col, std::string(o.name) + " is an assert and has no value");
    pending_uses_.push_back(it->second);
    return st.node;
  }
  // An operand as a value; literals take `want` (an integer literal may become f32).
  UOpRef value(const Operand& o, std::optional<DType> want) {
    if (o.tuple) error(o.col, "a tuple is not a value here");
    if (!o.lit) return named(o);
    const Literal& l = *o.lit;
    if (want && *want != natural_dtype(l) && !(l.kind == Literal::Int && *want == DType::F32))
      error(o.col, std::string(dtype_name(natural_dtype(l))) + " literal " + std::string(o.text) +
                       " where " + std::string(dtype_name(*want)) + " is expected");
    return literal(literal_value(l, want.value_or(natural_dtype(l))));
  }
  // The dtype literals take among `ops`: the first named operand's, else f32 if the op only
  // takes f32 or any literal is f32, else each literal's own.
  std::optional<DType> literal_context(const std::vector<const Operand*>& ops, bool float_op) {
    for (const Operand* o : ops)
      if (!o->lit && !o->tuple) return named(*o)->dtype;
    for (const Operand* o : ops)
      if (o->lit && o->lit->kind == Literal::Float) return DType::F32;
    if (float_op) return DType::F32;
    return std::nullopt;
  }
  std::vector<UOpRef> values(const std::vector<const Operand*>& ops, bool float_op = false) {
    std::optional<DType> want = literal_context(ops, float_op);
    std::vector<UOpRef> out;
    for (const Operand* o : ops) out.push_back(value(*o, want));
    return out;
  }
  std::vector<const Operand*> operand_range(size_t from) {
    std::vector<const Operand*> out;
    for (size_t i = from; i < s_->operands.size(); ++i) out.push_back(&s_->operands[i]);
    return out;
  }
  UOpRef index_value(const Operand& o) {
    if (o.lit && o.lit->kind != Literal::Int)
      error(o.col, "an offset or index must be an i32 integer");
    return value(o, DType::I32);
  }
  // The positional tuple of a book-form statement, or the named list attribute.
  const std::vector<int64_t>& list_arg(const char* key, size_t tuple_at) {
    const std::vector<int64_t>* attr = list_attr(key);
    if (s_->operands.size() > tuple_at && s_->operands[tuple_at].tuple) {
      if (attr) error(s_->operands[tuple_at].col, std::string("give ") + key + " once");
      const Tuple& t = *s_->operands[tuple_at].tuple;
      if (t.nested) error(s_->operands[tuple_at].col, std::string(key) + " takes a flat tuple");
      expect_operands(tuple_at + 1);
      return t.flat;
    }
    if (!attr) error(s_->op_col, op_text() + " needs " + key + "=[...]");
    expect_operands(tuple_at);
    return *attr;
  }
  // Book-form ((b0, e0), (b1, e1), ...) pairs, flattened.
  std::optional<std::vector<int64_t>> pairs_arg(size_t tuple_at) {
    if (s_->operands.size() <= tuple_at || !s_->operands[tuple_at].tuple) return std::nullopt;
    const Operand& o = s_->operands[tuple_at];
    expect_operands(tuple_at + 1);
    std::vector<int64_t> flat;
    if (!o.tuple->nested && !o.tuple->flat.empty())
      error(o.col, op_text() + " takes a tuple of pairs, like ((0, 2), (1, 3))");
    for (const auto& p : o.tuple->pairs) {
      if (p.size() != 2) error(o.col, op_text() + " takes a tuple of pairs, like ((0, 2), (1, 3))");
      flat.insert(flat.end(), p.begin(), p.end());
    }
    return flat;
  }

  // ---- ops
  UOpRef build(Op op) {
    switch (op) {
      case Op::Buffer:
        return build_buffer();
      case Op::Stack:
        return stack(values(operand_range(0)));
      case Op::Index:
        return build_index();
      case Op::Reshape:
        return reshape(value(operand_at(0, "operand"), {}), list_arg("shape", 1));
      case Op::Expand:
        return expand(value(operand_at(0, "operand"), {}), list_arg("shape", 1));
      case Op::Permute:
        return permute(value(operand_at(0, "operand"), {}), list_arg("order", 1));
      case Op::Flip:
        return flip(value(operand_at(0, "operand"), {}), list_arg("axes", 1));
      case Op::Shrink:
        return build_shrink();
      case Op::Pad:
        return build_pad();
      case Op::Reduce:
        return build_reduce();
      case Op::Stage:
        expect_operands(1);
        return stage(value(operand_at(0, "operand"), {}));
      case Op::Assert:
        return build_assert();
      case Op::Cast: {
        expect_operands(1);
        UOpRef x = value(operand_at(0, "operand"), {});
        if (!has_attr("dtype")) error(s_->op_col, "cast needs dtype=bool|i32|f32");
        return cast(x, dtype_attr(x->dtype));
      }
      default:
        return build_alu(op);
    }
  }

  UOpRef build_buffer() {
    const Operand& n = operand_at(0, "size");
    expect_operands(1);
    if (!n.lit || n.lit->kind != Literal::Int) error(n.col, "buffer takes its size as an integer");
    DType d = dtype_attr(DType::F32);
    int64_t slot = int_attr("slot").value_or(buffer_count_);
    ++buffer_count_;
    UOpRef b = buffer(n.lit->i, d, slot);
    auto [it, fresh] = slots_.emplace(slot, b);
    if (!fresh && it->second != b)
      error(s_->op_col, "slot " + std::to_string(slot) + " is already a buffer of " +
                            std::string(dtype_name(it->second->dtype)) +
                            shape_str(it->second->shape) + "; buffers of one slot must agree");
    return b;
  }

  UOpRef build_index() {
    UOpRef x = value(operand_at(0, "operand"), {});
    std::vector<UOpRef> idx;
    for (const Operand* o : operand_range(1)) idx.push_back(index_value(*o));
    return index(x, idx);
  }

  UOpRef build_shrink() {
    UOpRef x = value(operand_at(0, "operand"), {});
    if (std::optional<std::vector<int64_t>> pairs = pairs_arg(1)) {
      std::vector<UOpRef> offsets;
      Shape shape;
      for (size_t k = 0; k + 1 < pairs->size(); k += 2) {
        int64_t b = (*pairs)[k], e = (*pairs)[k + 1];
        if (b > e || b < INT32_MIN || b > INT32_MAX)
          error(s_->operands[1].col, "shrink window (" + std::to_string(b) + ", " +
                                         std::to_string(e) + ") is not a range");
        offsets.push_back(literal(Scalar::of_i32(static_cast<int32_t>(b))));
        shape.push_back(e - b);
      }
      return shrink(x, offsets, shape);
    }
    const std::vector<int64_t>* shape = list_attr("shape");
    if (!shape) error(s_->op_col, "shrink needs shape=[...]");
    std::vector<UOpRef> offsets;
    for (const Operand* o : operand_range(1)) offsets.push_back(index_value(*o));
    return shrink(x, offsets, *shape);
  }

  UOpRef build_pad() {
    UOpRef x = value(operand_at(0, "operand"), {});
    std::optional<std::vector<int64_t>> pairs = pairs_arg(1);
    const std::vector<int64_t>* pads = pairs ? &*pairs : list_attr("pads");
    if (!pairs) {
      if (!pads) error(s_->op_col, "pad needs pads=[l0 r0 l1 r1 ...]");
      expect_operands(1);
    }
    Scalar fill = Scalar::zero(x->dtype);
    if (Attr* a = find_attr("value")) {
      if (!a->scalar) error(a->col, "value takes a literal");
      Operand o;
      o.col = a->scalar->col;
      o.text = a->scalar->text;
      if (a->scalar->kind == Tok::Number || a->scalar->text == "true" || a->scalar->text == "false")
        o.lit = parse_literal(*a->scalar, loc_, line_);
      else
        error(a->col, "value takes a literal");
      fill = value(o, x->dtype)->value;
    }
    return pad(x, *pads, fill);
  }

  UOpRef build_reduce() {
    expect_operands(1);
    UOpRef x = value(operand_at(0, "operand"), {});
    std::optional<std::string_view> fold_name = word_attr("op");
    if (!fold_name) error(s_->op_col, "reduce needs op=add|mul|max|min");
    std::optional<Op> fold = parse_op(*fold_name);
    if (!fold || !is_reduce_op(*fold))
      error(find_attr("op")->col,
            "reduce op must be add, mul, max or min, not '" + std::string(*fold_name) + "'" +
                suggestion(*fold_name, {"add", "mul", "max", "min"},
                           {{"sum", "add"}, {"prod", "mul"}, {"product", "mul"}}));
    int64_t pop = int_attr("pop").value_or(1);
    if (s_->book && pop >= 0 && pop <= x->rank()) {
      // The book folds the trailing axes: move them to the front first.
      std::vector<int64_t> order;
      for (int64_t k = x->rank() - pop; k < x->rank(); ++k) order.push_back(k);
      for (int64_t k = 0; k < x->rank() - pop; ++k) order.push_back(k);
      x = permute(x, order);
    }
    return reduce(x, *fold, pop);
  }

  UOpRef build_assert() {
    expect_operands(2);
    operand_at(1, "second operand");
    std::vector<UOpRef> v = broadcast(values(operand_range(0)));
    return assert_equal(v[0], v[1]);
  }

  UOpRef build_alu(Op op) {
    size_t n = static_cast<size_t>(op_arity(op));
    if (s_->operands.size() < n)
      error(s_->op_col, op_text() + " takes " + std::to_string(n) + " operands, got " +
                            std::to_string(s_->operands.size()));
    expect_operands(n);
    std::vector<UOpRef> v;
    bool float_op = op_dtypes(op) == DTypeSet::Float;
    if (op == Op::Where) {
      v = values({&s_->operands[1], &s_->operands[2]});
      v.insert(v.begin(), value(s_->operands[0], DType::Bool));
    } else {
      v = values(operand_range(0), float_op);
    }
    return alu(op, broadcast(v));
  }

  struct Defined {
    std::string_view line;  // into the program's text, alive while it is parsed
    int col;
  };

  Program& p_;
  Location loc_;
  std::string_view line_;
  Syntax* s_ = nullptr;
  std::vector<Defined> defined_;  // by statement
  Arena arena_;                   // names_'s entries
  // Keys view the program's text, alive while it is parsed.
  std::pmr::unordered_map<std::string_view, size_t> names_{&arena_};
  std::unordered_map<int64_t, UOpRef> slots_;
  std::vector<size_t> pending_uses_;
  int64_t buffer_count_ = 0;
};

}  // namespace

Program parse_program(std::string_view text, const std::string& file) {
  // Editors on Windows may start a UTF-8 file with a byte order mark; it is not program text.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    text.remove_prefix(kByteOrderMark.size());
  Program p;
  p.file = file;
  p.statements.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  Builder builder(p);
  int line_no = 0;
  size_t start = 0;
  std::vector<Token> toks;
  Syntax s;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    Location loc{file, line_no, 0};
    Lexer(line, loc).run(toks);
    if (!toks.empty()) {
      StatementParser(toks, loc, line).run(s);
      builder.statement(s, loc, line);
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return p;
}

}  // namespace uopc
