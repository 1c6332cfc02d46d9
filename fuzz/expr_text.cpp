#include "fuzz/expr_text.h"

#include <cctype>
#include <map>
#include <regex>

#include "compiler/symbolic.h"
#include "ir/build.h"
#include "ir/error.h"
#include "ir/loop.h"

namespace uopc {
namespace {

// Longest first, so that "//" is not read as two "/".
const std::pair<const char*, Op> kInfix[] = {
    {"//", Op::Idiv}, {"==", Op::Cmpeq}, {"!=", Op::Cmpne}, {"+", Op::Add}, {"-", Op::Sub},
    {"*", Op::Mul},   {"%", Op::Mod},    {"<", Op::Cmplt},  {"&", Op::And}, {"|", Op::Or}};

class Reader {
 public:
  Reader(std::string text, std::map<int64_t, UOpRef> vars, Location where)
      : text_(std::move(text)), vars_(std::move(vars)), where_(std::move(where)) {}

  UOpRef whole() {
    UOpRef e = expr();
    skip_spaces();
    if (at_ < text_.size()) fail("expected the end of the expression");
    return e;
  }

 private:
  UOpRef expr() {
    skip_spaces();
    if (eat("(")) {
      UOpRef a = expr();
      skip_spaces();
      Op op = infix();
      UOpRef b = expr();
      skip_spaces();
      expect(")");
      return build(op, {a, b});
    }
    if (at_ < text_.size() && (std::isdigit(peek()) || peek() == '-')) return number();
    std::string word = name();
    if (word == "true" || word == "false") return literal(Scalar::of_bool(word == "true"));
    if (word.size() > 1 && word[0] == 'x' && std::all_of(word.begin() + 1, word.end(), ::isdigit)) {
      auto it = vars_.find(std::stoll(word.substr(1)));
      if (it == vars_.end()) fail(word + " has no bounds after the expression");
      return it->second;
    }
    std::optional<Op> op = parse_op(word);
    if (!op) fail("'" + word + "' is not an op, a literal or a variable");
    expect("(");
    if (*op == Op::Cast) return cast_to();
    std::vector<UOpRef> args{expr()};
    for (skip_spaces(); eat(","); skip_spaces()) args.push_back(expr());
    expect(")");
    return build(*op, args);
  }

  // The rest of cast(e, dtype).
  UOpRef cast_to() {
    UOpRef e = expr();
    skip_spaces();
    expect(",");
    skip_spaces();
    std::string word = name();
    std::optional<DType> to = parse_dtype(word);
    if (!to) fail("'" + word + "' is not a dtype");
    expect(")");
    try {
      return cast(e, *to);
    } catch (const std::exception& x) {
      fail(x.what());
    }
  }

  Op infix() {
    for (const auto& [text, op] : kInfix)
      if (eat(text)) return op;
    fail("expected an operator");
  }

  UOpRef number() {
    size_t start = at_;
    if (peek() == '-') ++at_;
    while (at_ < text_.size() && std::isdigit(peek())) ++at_;
    std::string digits = text_.substr(start, at_ - start);
    if (digits == "-" || digits.size() > 11) fail("expected an i32 literal");
    int64_t v = std::stoll(digits);
    if (v < INT32_MIN || v > INT32_MAX) fail(digits + " is not an i32");
    return literal(Scalar::of_i32(static_cast<int32_t>(v)));
  }

  std::string name() {
    size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(peek()) || peek() == '_')) ++at_;
    if (at_ == start) fail("expected an expression");
    return text_.substr(start, at_ - start);
  }

  UOpRef build(Op op, const std::vector<UOpRef>& args) {
    try {
      return alu(op, args);
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  char peek() const { return text_[at_]; }
  void skip_spaces() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool eat(const std::string& token) {
    if (text_.compare(at_, token.size(), token) != 0) return false;
    at_ += token.size();
    return true;
  }
  void expect(const std::string& token) {
    if (!eat(token)) fail("expected '" + token + "'");
  }
  [[noreturn]] void fail(const std::string& message) const {
    Location loc = where_;
    loc.col += static_cast<int>(at_);
    throw UserError(loc, "the expression does not read: " + message);
  }

  std::string text_;
  size_t at_ = 0;
  std::map<int64_t, UOpRef> vars_;
  Location where_;
};

}  // namespace

std::string expression_line(const RandomExpr& expr, const std::string& simplified) {
  std::string out = kExpressionLine + expr_str(expr.expr) + "  ->  " + simplified;
  for (const UOpRef& v : expr.vars) out += "  " + expr_str(v) + " in " + interval_str(v->bounds);
  return out + "\n";
}

std::optional<RandomExpr> read_expression(const std::string& text, const std::string& file) {
  std::string prefix = kExpressionLine;
  size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string content = text.substr(start, end - start);
    start = end + 1;
    if (content.rfind(prefix, 0) != 0) continue;
    size_t arrow = content.find("  ->  ");
    if (arrow == std::string::npos)
      throw UserError(Location(file, line), "the expression line has no '  ->  '");
    RandomExpr r;
    std::map<int64_t, UOpRef> vars;
    static const std::regex bound(R"(x(\d+) in \[(-?\d+), (-?\d+)\])");
    std::string rest = content.substr(arrow);
    for (std::sregex_iterator it(rest.begin(), rest.end(), bound), last; it != last; ++it) {
      int64_t id = std::stoll((*it)[1]), lo = std::stoll((*it)[2]), hi = std::stoll((*it)[3]);
      if (lo > hi || lo < INT32_MIN || hi > INT32_MAX)
        throw UserError(Location(file, line), "x" + std::to_string(id) + " has no i32 bounds");
      vars[id] = var(id, {lo, hi});
      r.vars.push_back(vars[id]);
    }
    Location where(file, line, static_cast<int>(prefix.size()) + 1);
    where.source = content;
    r.expr = Reader(content.substr(prefix.size(), arrow - prefix.size()), vars, where).whole();
    return r;
  }
  return std::nullopt;
}

}  // namespace uopc
