import Composition

await Shelfmark.main()
