// Programs campaigns found, which more than one test replays.
#pragma once

namespace uopc::found {

// A target-rejection reproducer of max_interval_lower_high: a stack of a max whose own interval
// the checker makes empty, and an offset (the `%broken` lines) that sums one element of each
// narrow value, one past the end of the sum's interval.
inline constexpr const char* kIntervalStackBreaker =
    "%v1 = stack -20 -13 -6 1 8 15 22 29 36 43 50 57 64 71 78 85\n"
    "%v2 = reshape %v1 shape=[1 4 4 1]\n"
    "%t9 = reshape %v2 shape=[16 1]\n"
    "%t10 = reshape %t9 shape=[1 4 4 1]\n"
    "%broken_term0 = index %v1 0\n"
    "%broken_term1 = index %v2 0 0 0 0\n"
    "%broken_sum2 = add %broken_term0 %broken_term1\n"
    "%broken_term2 = index %t9 0 0\n"
    "%broken_sum3 = add %broken_sum2 %broken_term2\n"
    "%broken_term3 = index %t10 0 0 0 0\n"
    "%broken_sum4 = add %broken_sum3 %broken_term3\n"
    "%t11 = cmplt %v2 1\n"
    "%v4 = where %t11 %v2 %v2\n"
    "%broken_term4 = index %v4 0 0 0 0\n"
    "%broken_sum5 = add %broken_sum4 %broken_term4\n"
    "%v5 = max %v4 197\n"
    "%v6 = stack %v5 %v4 %v2 %v5\n"
    "%broken_term5 = index %v6 0 0 0 0 0\n"
    "%broken_sum6 = add %broken_sum5 %broken_term5\n"
    "%v9 = neg %v2\n"
    "%broken_term6 = index %v9 0 0 0 0\n"
    "%broken_sum7 = add %broken_sum6 %broken_term6\n"
    "%broken_shift = sub %broken_sum7 -205\n"
    "%broken_room = buffer 847 dtype=i32 slot=998\n"
    "%broken = shrink %broken_room %broken_shift shape=[1]\n";

}  // namespace uopc::found
