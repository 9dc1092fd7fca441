"""The demo's handbook and release notes (the API documentation is in demo/pages.py)."""

from __future__ import annotations

from docdeck.server.demo.pages import Page

HANDBOOK: list[Page] = [
    (
        "Welcome",
        "👋",
        """# Welcome to Northwind

This handbook is how we work. It is written by everyone: propose a change whenever
something here is wrong or missing.

## Your first week

- [ ] Meet your onboarding buddy
- [ ] Set up your laptop ([Engineering setup](engineering/setup.md))
- [ ] Ship a small change to production
- [ ] Read [How we write docs](engineering/writing-docs.md)

![Team offsite](.gitbook/assets/team-photo.png)
""",
        [],
    ),
    (
        "Engineering",
        "🛠️",
        "# Engineering\n\nHow we build, review and ship.\n",
        [
            (
                "Setup",
                "💻",
                """# Engineering setup

```bash
brew bundle --file=Brewfile
make bootstrap
make test
```

Ask in `#eng-help` when a step fails; update this page with the fix.
""",
                [],
            ),
            (
                "Code review",
                "🔍",
                """# Code review

- Review within one working day.
- Approve when you would be happy to maintain the change.
- Block only for correctness, security or data loss.

> [!NOTE]
> Style questions are settled by the formatter, not in review.
""",
                [],
            ),
            (
                "On-call",
                "📟",
                """# On-call

We rotate weekly. The runbooks live in the Incident Runbooks space; the escalation policy
is in [Escalation](../people/escalation.md).
""",
                [],
            ),
            (
                "Writing docs",
                "✍️",
                """# How we write docs

1. Lead with the task, not the feature.
2. One idea per paragraph.
3. Every code sample runs as written.
""",
                [],
            ),
        ],
    ),
    (
        "People",
        "🧑‍🤝‍🧑",
        "# People\n\nTime off, expenses and growth.\n",
        [
            (
                "Time off",
                "🏖️",
                """# Time off

Take at least 25 days a year. Tell your team two weeks ahead for anything longer than
three days. The policy document: [Leave policy (PDF)](../.gitbook/assets/leave-policy.pdf).
""",
                [],
            ),
            (
                "Expenses",
                "🧾",
                """# Expenses

| Category | Limit without approval |
|----------|-----------------------:|
| Books and courses | €500 / year |
| Home office | €800 once |
| Travel | as booked through the travel tool |
""",
                [],
            ),
        ],
    ),
]

RELEASES: list[tuple[str, str]] = [
    (
        "v2.4.0",
        """# v2.4.0

**Released 12 March**

## New

- Partial refunds: `POST /v2/orders/{id}/refunds` accepts an `amount`.
- `customer.updated` webhook event.

## Fixed

- Listing shipments with a cursor older than an hour no longer answers `500`.
""",
    ),
    (
        "v2.5.0",
        """# v2.5.0

**Released 9 April**

## New

- Go SDK 1.0.
- Invoices carry a signed `pdf` link.

## Deprecated

- `order.fulfilled`: use `order.shipped`. Removal on 1 July.
""",
    ),
    (
        "v2.6.0",
        """# v2.6.0

**Released 14 May**

## New

- `Idempotency-Key` on every `POST`.
- Rate limits are now per token, not per IP address.

## Breaking

- `GET /v1/orders` answers `410 Gone`.
""",
    ),
]
