"""What the sandbox serves as HTML: published sites and the pages behind `urls.app`."""
