from evaleditor.cli import main

raise SystemExit(main())
