// libFuzzer target: arbitrary bytes into the parser. Any input either parses, and then prints
// and parses back to the same graph, or is refused with a located UserError; anything else
// (another exception, a crash, a hang, a leak) is a bug.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "ir/error.h"
#include "ir/parse.h"
#include "ir/print.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    uopc::Program p = uopc::parse_program(text, "input.uir");
    uopc::Program q = uopc::parse_program(uopc::print_program(p), "printed.uir");
    if (!uopc::same_graph(p, q)) {
      std::fprintf(stderr, "parse(print(p)) is another graph\n");
      std::abort();
    }
  } catch (const uopc::UserError& e) {
    if (std::string_view(e.what()).rfind("input.uir:", 0) != 0) {
      std::fprintf(stderr, "an error without its place: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
