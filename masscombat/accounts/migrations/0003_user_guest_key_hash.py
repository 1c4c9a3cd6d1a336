from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_display_name_100'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='guest_key_hash',
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
    ]
