//===- Arguments.cpp - Command lines of the mpmd subcommands --------------===//

#include "Arguments.h"

#include "CommandError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir::mpmd::tools {

llvm::Error parseArguments(llvm::ArrayRef<llvm::StringRef> args,
                           llvm::ArrayRef<ValuedOption> options,
                           llvm::ArrayRef<FlagOption> flags, bool &help,
                           std::optional<std::string> &positional,
                           llvm::StringRef positionalName) {
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--help" || arg == "-h") {
      help = true;
      continue;
    }
    if (const FlagOption *flag = llvm::find_if(
            flags, [&](const FlagOption &flag) { return flag.name == arg; });
        flag != flags.end()) {
      *flag->value = true;
      continue;
    }
    auto [name, inlineValue] = arg.split('=');
    const ValuedOption *option =
        llvm::find_if(options, [&, name = name](const ValuedOption &option) {
          return option.name == name;
        });
    if (option == options.end()) {
      if (arg.starts_with("-") && arg != "-")
        return makeUsageError("unknown option '" + name + "'");
      if (positional)
        return makeUsageError("unexpected argument '" + arg + "' (" +
                              positionalName + " is already given)");
      positional = arg.str();
      continue;
    }
    if (*option->value)
      return makeUsageError(name + " is given twice");
    if (arg.contains('='))
      *option->value = inlineValue.str();
    else if (i + 1 < args.size())
      *option->value = args[++i].str();
    else
      return makeUsageError(name + " needs a value");
  }
  return llvm::Error::success();
}

llvm::Expected<int64_t> parseIntegerOption(llvm::StringRef option,
                                           llvm::StringRef text) {
  int64_t value;
  if (text.getAsInteger(10, value))
    return makeUsageError(option + " expects an integer (got '" + text + "')");
  return value;
}

} // namespace mlir::mpmd::tools
