from docdeck.cli import main

raise SystemExit(main())
