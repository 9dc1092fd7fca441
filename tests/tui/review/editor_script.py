"""A test editor: what a user does in $EDITOR, done by a script on the file it is given.

DOCDECK_TEST_EDIT="old=>new" replaces text; DOCDECK_TEST_EDIT_WRITE replaces the whole file;
DOCDECK_TEST_EDIT_EXIT makes it exit with that status after writing (an editor that saved and
then failed); DOCDECK_TEST_EDIT_LOG, when set, gets the file's text as the editor saw it.
"""

import os
import sys

path = sys.argv[1]
with open(path, encoding="utf-8") as file:
    text = file.read()
log = os.environ.get("DOCDECK_TEST_EDIT_LOG")
if log:
    with open(log, "w", encoding="utf-8") as file:
        file.write(text)
edit = os.environ.get("DOCDECK_TEST_EDIT", "")
whole = os.environ.get("DOCDECK_TEST_EDIT_WRITE")
if whole is not None:
    text = whole
if "=>" in edit:
    old, new = edit.split("=>", 1)
    text = text.replace(old.replace("\\n", "\n"), new.replace("\\n", "\n"))
with open(path, "w", encoding="utf-8") as file:
    file.write(text)
sys.exit(int(os.environ.get("DOCDECK_TEST_EDIT_EXIT", "0")))
