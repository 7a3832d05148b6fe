// gattcheck: proves the BlueZ transport on real bluetoothd (emulated or real radios) without the engine.
// Each instance advertises a name, links with every peer it finds, sends numbered frames both ways,
// and reports links, frames and recoveries; the VM harness (scripts/blelab-run) runs several at once.
//   gattcheck --adapter hci1 --name aaaa0001 [--expect N] [--duration S] [--interval S] [--allow A] [--deny A]
import Foundation

exit(Checker(options: Options(CommandLine.arguments)).run())
