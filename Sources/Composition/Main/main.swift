import Composition

Shelfmark.runTasksOnEventLoops()
await Shelfmark.main()
