-- The plan catalogue (spec sections 3 and 9): the single source of truth for the
-- Settings subscription panel, the pricing page and the upgrade page.
INSERT INTO `plans` (`id`, `name`, `price`, `period`, `button_text`, `features`, `note`, `popular`, `sort_order`) VALUES
	('premium_monthly', 'Premium (Monthly)', 29.99, 'month', 'Choose Premium',
	 '["Unlimited access to all features","Priority customer support","Advanced analytics","Custom integrations"]', NULL, 0, 1),
	('pro_annual', 'Pro (Annual)', 299.99, 'year', 'Choose Pro',
	 '["All Premium features","2 months free","Dedicated account manager","Custom training sessions"]', NULL, 0, 2),
	('monthly', 'Monthly Plan', 3, 'month', 'Subscribe Monthly',
	 '["Full access to all features","Unlimited messages","Priority support","Advanced AI capabilities"]', NULL, 0, 3),
	('yearly', 'Yearly Plan', 20, 'year', 'Subscribe Yearly',
	 '["Everything in Monthly plan","Best value for money","Annual billing"]', 'Save $16 compared to monthly', 1, 4);
