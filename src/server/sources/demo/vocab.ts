/**
 * Word lists for the demo workspace: people, teams, channels and the nouns message templates
 * slot in. Plain data, no logic.
 */

/** Given names of varied origins. */
export const FIRST_NAMES: readonly string[] = [
  'Aisha', 'Akira', 'Alejandro', 'Amara', 'Amir', 'Ana', 'Anders', 'Aneesh', 'Anika', 'Arjun',
  'Astrid', 'Ayumi', 'Beatriz', 'Ben', 'Bilal', 'Bongani', 'Camila', 'Carlos', 'Chen', 'Chiamaka',
  'Chloé', 'Dae-jung', 'Daniel', 'Dara', 'Deepika', 'Diego', 'Dmitri', 'Elena', 'Elif', 'Emeka',
  'Emma', 'Esperanza', 'Fatima', 'Felix', 'Finn', 'Freya', 'Gabriel', 'Grace', 'Hana', 'Hannah',
  'Hiroshi', 'Ibrahim', 'Ifeoma', 'Ines', 'Ingrid', 'Isabela', 'Ivan', 'Jamal', 'Javier', 'Jin',
  'Joaquín', 'Jonas', 'Julia', 'Kai', 'Kalani', 'Kavya', 'Kenji', 'Kwame', 'Lars', 'Layla',
  'Leila', 'Liam', 'Lucía', 'Luis', 'Maya', 'Mei', 'Mateo', 'Mohammed', 'Nadia', 'Naledi',
  'Nikhil', 'Nina', 'Noah', 'Nour', 'Oluwaseun', 'Omar', 'Oskar', 'Pablo', 'Priya', 'Rafael',
  'Rahul', 'Rania', 'Ravi', 'Rosa', 'Ruth', 'Sakura', 'Samir', 'Santiago', 'Sara', 'Sebastián',
  'Seo-yeon', 'Shreya', 'Siddharth', 'Sofia', 'Søren', 'Tariq', 'Thabo', 'Tomás', 'Tuan', 'Valentina',
  'Wei', 'Yara', 'Yasmin', 'Yuki', 'Yusuf', 'Zainab', 'Zara', 'Zoë', 'Marcus', 'Olivia',
  'Ethan', 'Chloe', 'Jordan', 'Taylor', 'Morgan', 'Riley', 'Quinn', 'Harper', 'Elijah', 'Aaliyah',
  'Malik', 'Imani', 'Keanu', 'Leilani', 'Ayaan', 'Meera', 'Farah', 'Hamza', 'Selin', 'Can',
  'Mattias', 'Aino', 'Eero', 'Katarzyna', 'Piotr', 'Zsofia', 'Bence', 'Ioana', 'Andrei', 'Thandiwe',
];

/** Family names of varied origins. */
export const LAST_NAMES: readonly string[] = [
  'Abara', 'Adeyemi', 'Agarwal', 'Ahmed', 'Almeida', 'Andersen', 'Araújo', 'Bakker', 'Banerjee', 'Becker',
  'Bianchi', 'Boateng', 'Brennan', 'Castillo', 'Chakraborty', 'Chen', 'Cho', 'Costa', 'Cruz', 'Dang',
  'Das', 'Delgado', 'Diallo', 'Dubois', 'Dvořák', 'Eriksson', 'Esposito', 'Farouk', 'Fernández', 'Fischer',
  'Fitzgerald', 'Fujimoto', 'García', 'Ghosh', 'Goldberg', 'González', 'Gupta', 'Haddad', 'Hansen', 'Hashemi',
  'Hernández', 'Hoang', 'Horvath', 'Hussain', 'Ibrahim', 'Ito', 'Ivanova', 'Jansen', 'Jensen', 'Johansson',
  'Kapoor', 'Kariuki', 'Kato', 'Kaur', 'Khan', 'Kim', 'Kowalski', 'Kumar', 'Lam', 'Larsen',
  'Laurent', 'Lee', 'Li', 'Lindqvist', 'Liu', 'López', 'Mahlangu', 'Martínez', 'Mbeki', 'Mehta',
  'Mendoza', 'Moreau', 'Morales', 'Murphy', 'Nakamura', 'Nair', 'Nguyen', 'Nielsen', 'Novak', 'Nowak',
  'Obi', 'Odhiambo', 'Okafor', "O'Brien", 'Oliveira', 'Osei', 'Park', 'Patel', 'Pereira', 'Petrov',
  'Popescu', 'Quispe', 'Rahman', 'Ramírez', 'Rao', 'Reddy', 'Reyes', 'Rossi', 'Sánchez', 'Santos',
  'Sato', 'Schmidt', 'Shah', 'Silva', 'Singh', 'Sokolov', 'Suzuki', 'Tanaka', 'Taylor', 'Tran',
  'Turner', 'Uddin', 'Van der Berg', 'Vargas', 'Volkov', 'Wagner', 'Walker', 'Wang', 'Watanabe', 'Weber',
  'Wiśniewski', 'Wu', 'Yamamoto', 'Yang', 'Yilmaz', 'Yoon', 'Zhang', 'Zhou', 'Zulu', 'Mensah',
];

export const TEAMS = [
  'Engineering', 'Design', 'Product', 'Sales', 'Support', 'Marketing', 'Finance', 'People',
  'Security', 'Data', 'Legal', 'Operations',
] as const;
export type Team = (typeof TEAMS)[number];

/** How likely a new hire is to land in each team. */
export const TEAM_WEIGHTS: Readonly<Record<Team, number>> = {
  Engineering: 32, Design: 7, Product: 7, Sales: 12, Support: 10, Marketing: 7, Finance: 4,
  People: 4, Security: 4, Data: 6, Legal: 2, Operations: 5,
};

export const TITLES: Readonly<Record<Team, readonly string[]>> = {
  Engineering: [
    'Software Engineer', 'Senior Software Engineer', 'Staff Engineer', 'Principal Engineer',
    'Backend Engineer', 'Frontend Engineer', 'Mobile Engineer', 'Site Reliability Engineer',
    'Engineering Manager', 'QA Engineer', 'Platform Engineer',
  ],
  Design: ['Product Designer', 'Senior Product Designer', 'UX Researcher', 'Design Lead', 'Brand Designer'],
  Product: ['Product Manager', 'Senior Product Manager', 'Group Product Manager', 'Product Analyst'],
  Sales: ['Account Executive', 'Sales Development Rep', 'Regional Sales Director', 'Solutions Engineer', 'Sales Ops Manager'],
  Support: ['Support Engineer', 'Customer Success Manager', 'Support Team Lead', 'Technical Account Manager'],
  Marketing: ['Content Marketer', 'Growth Marketer', 'Product Marketing Manager', 'Events Manager', 'Head of Marketing'],
  Finance: ['Financial Analyst', 'Controller', 'Accountant', 'FP&A Manager'],
  People: ['Recruiter', 'People Partner', 'Talent Lead', 'Workplace Coordinator'],
  Security: ['Security Engineer', 'Security Analyst', 'Head of Security', 'AppSec Engineer'],
  Data: ['Data Scientist', 'Data Engineer', 'Analytics Engineer', 'ML Engineer'],
  Legal: ['Counsel', 'Paralegal', 'Privacy Lead'],
  Operations: ['Operations Manager', 'Business Operations Analyst', 'IT Administrator', 'Chief of Staff'],
};

/** The prefix a team's channels carry (#eng-…, #design-…). */
export const TEAM_CHANNEL_PREFIX: Readonly<Record<Team, string>> = {
  Engineering: 'eng', Design: 'design', Product: 'product', Sales: 'sales', Support: 'support',
  Marketing: 'mkt', Finance: 'finance', People: 'people', Security: 'sec', Data: 'data',
  Legal: 'legal', Operations: 'ops',
};

/** Areas a team channel is about; any team can pair with most of these. */
export const AREAS: readonly string[] = [
  'backend', 'frontend', 'mobile', 'ios', 'android', 'payments', 'billing', 'search', 'infra',
  'platform', 'growth', 'onboarding', 'api', 'auth', 'analytics', 'ml', 'notifications', 'checkout',
  'integrations', 'reporting', 'pricing', 'enterprise', 'smb', 'partners', 'docs', 'localization',
  'accessibility', 'perf', 'reliability', 'data-pipeline', 'warehouse', 'experiments', 'web',
  'desktop', 'admin', 'compliance', 'privacy', 'hiring', 'tooling', 'ci', 'release', 'qa',
  'design-system', 'research', 'brand', 'content', 'events', 'social', 'seo', 'campaigns',
];

export const REGIONS: readonly string[] = ['emea', 'apac', 'na', 'latam', 'dach', 'uk', 'nordics', 'anz', 'india', 'japan'];

export const CHANNEL_SUFFIXES: readonly string[] = [
  'standup', 'oncall', 'leads', 'hiring', 'help', 'triage', 'planning', 'retro', 'wins', 'alerts',
  'sync', 'questions', 'reviews', 'roadmap', 'internal', 'ops',
];

export const PROJECT_CODENAMES: readonly string[] = [
  'atlas', 'beacon', 'comet', 'dragonfly', 'ember', 'falcon', 'granite', 'harbor', 'juniper',
  'kestrel', 'lighthouse', 'monsoon', 'nimbus', 'orchid', 'pioneer', 'quasar', 'redwood', 'sequoia',
  'tundra', 'vortex', 'willow', 'zephyr', 'aurora', 'basalt', 'cobalt', 'delta', 'everest', 'fjord',
  'glacier', 'helix', 'iris', 'jade', 'kraken', 'lotus', 'meridian', 'nova', 'onyx', 'polaris',
  'quill', 'raven', 'sierra', 'tempest', 'umbra', 'vega', 'wren', 'yosemite', 'zenith', 'apollo',
  'borealis', 'cascade', 'dune', 'echo', 'fathom', 'gemini', 'horizon', 'ion', 'jetstream', 'kite',
];

export const CUSTOMERS: readonly string[] = [
  'Globex', 'Initech', 'Umbrella Health', 'Stark Logistics', 'Wayne Foods', 'Acme Corp', 'Soylent',
  'Hooli', 'Vandelay Imports', 'Tyrell Labs', 'Cyberdyne', 'Wonka Retail', 'Massive Dynamic',
  'Oscorp', 'Pied Piper', 'Nakatomi Trading', 'Gringotts Bank', 'Monarch Air', 'Bluth Homes',
  'Dunder Paper', 'Prestige Worldwide', 'Sterling Cooper', 'Los Pollos', 'Duff Beverages',
  'Aperture Science', 'Black Mesa', 'Virtucon', 'Gekko & Co', 'Krusty Foods', 'Planet Express',
  'Wernham Hogg', 'Zorg Industries', 'Ollivander Supply', 'Spacely Sprockets', 'Cogswell Cogs',
  'Nordic Freight', 'Sunrise Clinics', 'Harbor Insurance', 'Summit Outdoors', 'Lumen Energy',
];

export const SERVICES: readonly string[] = [
  'payments-api', 'auth-service', 'checkout', 'search-indexer', 'notifications', 'billing-worker',
  'api-gateway', 'ledger', 'media-proxy', 'graphql-edge', 'user-profile', 'rate-limiter',
  'scheduler', 'export-jobs', 'webhooks', 'inventory', 'pricing-engine', 'email-sender',
  'feature-flags', 'session-store', 'audit-log', 'recommendations', 'image-resizer', 'sync-daemon',
];

export const DATABASES: readonly string[] = ['orders-db', 'users-pg-01', 'billing-replica-2', 'events-kafka', 'cache-redis-3', 'analytics-wh'];
export const CLOUD_REGIONS: readonly string[] = ['eu-west-1', 'us-east-1', 'us-west-2', 'ap-southeast-1', 'eu-central-1', 'sa-east-1'];
export const REPOS: readonly string[] = ['web', 'api', 'mobile', 'infra', 'design-system', 'data-jobs', 'docs', 'sdk'];
export const TICKET_PREFIXES: readonly string[] = ['PLAT', 'WEB', 'MOB', 'PAY', 'SEC', 'OPS', 'DATA', 'SUP', 'GROW', 'INFRA'];
export const DEPENDENCIES: readonly string[] = ['lodash', 'openssl', 'log4j', 'xml2js', 'jsonwebtoken', 'axios', 'protobufjs', 'sharp'];
export const VENDORS: readonly string[] = ['Figma', 'Datadog', 'Zendesk', 'Salesforce', 'Notion', 'PagerDuty', 'Snowflake', 'Okta'];
export const DEADLINE_TIMES: readonly string[] = ['noon', '1pm', '2pm', '2:30pm', '3pm', '4pm', '5pm', 'EOD', '11am', '6pm'];
export const LATER_DAYS: readonly string[] = ['Thursday', 'Friday', 'next Monday', 'next week', 'Wednesday', 'end of the week', 'next Tuesday'];
export const WEEKDAYS: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
export const CHANGES: readonly string[] = [
  'add retry with backoff', 'migrate to the new client', 'remove the legacy flag', 'split the settings page',
  'cache the price lookups', 'fix the flaky date test', 'bump dependencies', 'add audit events',
];
export const DOC_TITLES: readonly string[] = [
  'RFC: event sourcing for orders', 'Q3 planning doc', 'Onboarding revamp brief', 'Pricing page copy',
  'Incident postmortem', 'Hiring plan', 'API style guide', 'Data retention policy', 'Launch checklist',
  'Quarterly business review', 'Design principles', 'Migration plan',
];
export const HOBBIES: readonly string[] = [
  'pets', 'music', 'running-club', 'books', 'cooking', 'gardening', 'photography', 'board-games',
  'cycling', 'climbing', 'coffee', 'movies', 'gaming', 'parents', 'travel', 'football', 'yoga', 'knitting',
];
export const OFFICES: readonly string[] = ['london', 'berlin', 'nyc', 'sf', 'lagos', 'bangalore', 'tokyo', 'sao-paulo', 'toronto', 'sydney', 'remote'];

/** The bot users every workspace has (after the member, before the people). */
export const BOTS: readonly { name: string; display: string; title: string }[] = [
  { name: 'deploybot', display: 'deploybot', title: 'Deploy notifications' },
  { name: 'PagerBot', display: 'PagerBot', title: 'On-call alerts' },
  { name: 'Jira', display: 'Jira', title: 'Issue tracker' },
  { name: 'GitHub', display: 'GitHub', title: 'Code reviews and CI' },
];
