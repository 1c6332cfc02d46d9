// "Did you mean ...?": the known word closest to a misspelt one.
//
// Closeness is the edit distance with adjacent transpositions (optimal string alignment), so
// `reshap`, `rehsape` and `reshapee` are all one edit from `reshape`. A word is only suggested
// when it is near enough that the suggestion is likely the intent: at most one edit in a word
// of up to four characters, two in longer ones, and strictly closer than every other known
// word.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uopc {

int edit_distance(std::string_view a, std::string_view b);

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& known);

// "; did you mean 'WORD'?" for the closest known word, or "" when none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known);

}  // namespace uopc
